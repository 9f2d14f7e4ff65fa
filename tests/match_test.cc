// The matcher: every known error in one pass, exact spans, ranking, cache.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <set>
#include <span>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "kedb/engine.h"
#include "logs/line_chunker.h"
#include "match/literal_check.h"
#include "engine/candidate.h"
#include "engine/engine_impl.h"
#include "match/pattern_set.h"
#include "regex/pcre2_regex.h"
#include "match/prefilter.h"
#include "logs/triggers.h"
#include "test_util.h"

namespace kedb {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::shared_ptr<const Engine> OpenBundled(const TempDir& cache) {
  auto e = Engine::Open((testing::SourceDir() / "kb").string(), OpenOptions{.cache_dir = cache.path().string()});
  EXPECT_TRUE(e.ok()) << e.status().message();
  return e.ok() ? e.value() : nullptr;
}


// Patterns in hand as a set's source, with an identity that changes with
// any of them.
match::PatternSource SourceOf(const std::vector<std::string>& list) {
  auto held = std::make_shared<std::vector<std::string>>(list);
  std::string all;
  for (const std::string& p : list) all += p + "\n";
  return match::PatternSource{held->size(), [held](uint32_t p) { return std::string_view((*held)[p]); },
                              [held](uint32_t p) { return KnowledgeBase::PatternHash((*held)[p]); },
                              KnowledgeBase::PatternHash(all)};
}

// The same hits, line for line, pattern for pattern, span for span.
void ExpectSameHits(const std::vector<match::LineHit>& a, const std::vector<match::LineHit>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].line, b[i].line);
    EXPECT_EQ(a[i].pattern, b[i].pattern);
    EXPECT_EQ(a[i].span, b[i].span);
  }
}

// Matches a pattern confirmed (fuzzy candidates left out).
std::size_t RegexHits(const MatchResult& r) {
  return static_cast<std::size_t>(
      std::count_if(r.matches.begin(), r.matches.end(), [](const Match& m) { return m.kind == MatchKind::kRegex; }));
}

// The matcher's semantics whatever the evidence: nothing is withheld.
MatchOptions ReportAll() {
  MatchOptions o;
  o.min_confidence = 0;
  o.list_confidence = 0;
  return o;
}

std::shared_ptr<const Engine> FromRecords(std::vector<Record> records, const TempDir& cache) {
  auto e = Engine::FromKnowledgeBase(KnowledgeBase::FromRecords(std::move(records)), cache.path().string());
  EXPECT_TRUE(e.ok()) << e.status().message();
  return e.ok() ? e.value() : nullptr;
}

TEST(Match, SpecificBeatsGeneric) {
  TempDir cache;
  auto engine = OpenBundled(cache);
  const std::string text =
      "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0";
  MatchResult r = engine->Match(text, MatchOptions{});
  ASSERT_GE(r.matches.size(), 2u);
  EXPECT_FALSE(r.abstained);
  EXPECT_EQ(r.matches[0].record->id, "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(r.matches[1].record->id, "cuda/cudnn-batch-norm-bad-param");
  EXPECT_GT(r.matches[0].score, r.matches[1].score);
  // The span is exactly the regex's match.
  EXPECT_EQ(text.substr(r.matches[0].begin, r.matches[0].end - r.matches[0].begin),
            "CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon");
  EXPECT_EQ(text.substr(r.matches[1].begin, r.matches[1].end - r.matches[1].begin), "CUDNN_STATUS_BAD_PARAM");
  // Every score explains itself, and the specific pattern earns more of
  // the first two factors (literal characters, share of the line).
  ASSERT_GE(r.matches[0].why.size(), 2u);
  ASSERT_GE(r.matches[1].why.size(), 2u);
  EXPECT_EQ(r.matches[1].why[1].name, "coverage");
  EXPECT_EQ(r.matches[0].why[0].name, "specificity");
  EXPECT_GT(r.matches[0].why[0].value, r.matches[1].why[0].value);
  EXPECT_GT(r.matches[0].why[1].value, r.matches[1].why[1].value);
}

// A line that more patterns hit than kMaxLineHits is measured for the
// hits with the most literal characters: the narrow pattern is among them
// and answers first; the broadest, with the fewest, are not measured.
TEST(Match, ALineManyPatternsHitKeepsItsMostSpecificHits) {
  TempDir cache;
  std::vector<Record> records;
  const std::size_t broad = match::kMaxLineHits + 8;
  for (std::size_t i = 0; i < broad; ++i) {
    Record r;
    r.id = fmt::format("gen/broad-{:02}", i);
    r.domain = "gen";
    // Literal characters grow with i: "failed" and i words of the message.
    const std::vector<std::string> words = {"to", "read", "parent", "trigger", "after"};
    std::string regex = "failed";
    for (std::size_t w = 0; w < i % 6 && w < words.size(); ++w) regex += " " + words[w];
    r.regex = regex + std::string(i / 6, '.') + ".*";
    r.signature = "generic failure " + std::to_string(i);
    records.push_back(r);
  }
  Record narrow;
  narrow.id = "gen/narrow";
  narrow.domain = "gen";
  narrow.regex = "LovexrtPanic: failed to read parent trigger after \\d+ ms \\(KX26711\\)";
  narrow.signature = "LovexrtPanic: failed to read parent trigger after 1552 ms (KX26711)";
  records.push_back(narrow);
  auto engine = FromRecords(records, cache);
  ASSERT_NE(engine, nullptr);
  MatchOptions all = ReportAll();
  all.top = 100;
  const MatchResult r = engine->Match("LovexrtPanic: failed to read parent trigger after 1552 ms (KX26711)", all);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().record->id, "gen/narrow");
  EXPECT_EQ(RegexHits(r), match::kMaxLineHits);
  // Those left out are the broadest: "failed" alone, or with one word.
  for (const Match& m : r.matches) {
    if (m.kind != MatchKind::kRegex) continue;
    EXPECT_NE(m.record->regex.rfind("failed.", 0), 0u) << m.record->id;
    EXPECT_NE(m.record->regex.rfind("failed to.", 0), 0u) << m.record->id;
  }
}

TEST(Match, LinesAndSpansInAMultiLineText) {
  TempDir cache;
  auto engine = OpenBundled(cache);
  const std::string text =
      "epoch 1 step 10 loss=0.31\r\n"
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 12, in <module>\n"
      "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED when calling cudnnRNNBackwardData_v8\n";
  MatchResult r = engine->Match(text, MatchOptions{});
  ASSERT_EQ(RegexHits(r), 1u);
  EXPECT_EQ(r.matches[0].record->id, "cuda/cudnn-rnn-double-backward");
  EXPECT_EQ(r.matches[0].line, 4u);
  EXPECT_EQ(text.substr(r.matches[0].begin, r.matches[0].end - r.matches[0].begin),
            "CUDNN_STATUS_NOT_SUPPORTED when calling cudnnRNNBackwardData");
}

TEST(Match, NothingKnownAbstains) {
  TempDir cache;
  auto engine = OpenBundled(cache);
  MatchResult r = engine->Match("everything is fine\nepoch 3 done", MatchOptions{});
  EXPECT_TRUE(r.matches.empty());
  EXPECT_TRUE(r.abstained);
}

// A record's counterexamples are other errors: a text that reads at least
// as much like one of them as like the record gets no fuzzy answer from
// it, while a reworded message of the record itself still does.
TEST(Match, ACounterexampleIsNotAFuzzyMatch) {
  TempDir cache;
  Record r = testing::MakeRecord("t/store-port",
                                 "torch.distributed.DistNetworkError: The server socket has failed to bind. Address "
                                 "already in use",
                                 "DistNetworkError: The server socket has failed to bind");
  r.counterexamples = {{"OSError: [Errno 98] Address already in use", "https://example.invalid/1", "", ""}};
  Record other = testing::MakeRecord("t/other", "FrobError: frob failed", "frob failed");
  auto engine = FromRecords({r, other}, cache);
  ASSERT_TRUE(engine);
  MatchResult lookalike = engine->Match("OSError: [Errno 98] Address already in use", MatchOptions{});
  for (const Match& m : lookalike.matches) EXPECT_NE(m.record->id, "t/store-port");
  MatchResult reworded = engine->Match(
      "torch.distributed.DistNetworkError: server socket failed to bind to port 29500 (address already in use)",
      MatchOptions{});
  ASSERT_FALSE(reworded.matches.empty());
  EXPECT_EQ(reworded.matches[0].record->id, "t/store-port");
  EXPECT_EQ(reworded.matches[0].kind, MatchKind::kFuzzy);
  // Without the counterexample the look-alike would have been offered.
  r.counterexamples.clear();
  TempDir cache2;
  auto plain = FromRecords({r, other}, cache2);
  ASSERT_TRUE(plain);
  MatchOptions everything;
  everything.min_confidence = 0;
  MatchResult offered = plain->Match("OSError: [Errno 98] Address already in use", everything);
  bool found = false;
  for (const Match& m : offered.matches) found = found || m.record->id == "t/store-port";
  EXPECT_TRUE(found);
}

// A record written from OpenSSL's words is found from Go's words for the
// same error (https://github.com/docker-library/hello-world/issues/86),
// though the two share no rare word; one whose broad pattern lists a
// symptom ("connection refused") is not offered for every refusal.
TEST(Match, AnErrorInAnotherToolsWordsFindsItsFamilysRecord) {
  TempDir cache;
  Record tls = testing::MakeRecord("t/tls-untrusted", "SSL: certificate verify failed - unable to get local issuer certificate",
                                   "unable to get local issuer certificate|certificate verify failed");
  tls.domain = "networking";
  Record nccl = testing::MakeRecord("t/nccl-connect", "NCCL WARN socketStartConnect: Connect failed : Connection refused",
                                    "socketStartConnect.*(Connection refused|No route to host)");
  nccl.domain = "nccl";
  Record other = testing::MakeRecord("t/other", "FrobError: frob failed", "frob failed");
  auto engine = FromRecords({tls, nccl, other}, cache);
  ASSERT_TRUE(engine);
  MatchOptions everything;
  everything.min_confidence = 0;
  MatchResult r = engine->Match(
      "Error response from daemon: Get https://registry-1.docker.io/v2/: x509: certificate signed by unknown authority",
      everything);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches[0].record->id, "t/tls-untrusted");
  EXPECT_EQ(r.matches[0].kind, MatchKind::kFuzzy);
  bool family = false;
  for (const ScoreFactor& f : r.matches[0].why) family = family || (f.name == "family" && f.value == 1);
  EXPECT_TRUE(family);
  MatchResult refused = engine->Match(
      "psycopg2.OperationalError: connection to server at \"localhost\" (127.0.0.1), port 5432 failed: Connection "
      "refused",
      everything);
  for (const Match& m : refused.matches) {
    for (const ScoreFactor& f : m.why) EXPECT_FALSE(f.name == "family") << m.record->id;
  }
}

TEST(Match, PythonDialectAndCaptures) {
  TempDir cache;
  auto engine = FromRecords(
      {testing::MakeRecord("t/named", "No module named 'torch'", R"(No module named '(?P<module>[\w.]+)')"),
       testing::MakeRecord("t/end", "fatal: bad object HEAD", R"(bad object \w+\Z)"),
       testing::MakeRecord("t/count", "retry 12 times", R"(retry \d{,3} times)"),
       testing::MakeRecord("t/nolit", "code 123-4567", R"(\d{3}-\d{4})"),
       testing::MakeRecord("t/look", "found it", R"((?<!not )found)")},
      cache);
  auto r = engine->Match("ImportError: No module named 'torch.nn'", ReportAll());
  ASSERT_EQ(RegexHits(r), 1u);
  EXPECT_EQ(r.matches[0].kind, MatchKind::kRegex);
  ASSERT_EQ(r.matches[0].captures.size(), 1u);
  EXPECT_EQ(r.matches[0].captures[0].first, "module");
  EXPECT_EQ(r.matches[0].captures[0].second, "torch.nn");
  EXPECT_EQ(RegexHits(engine->Match("fatal: BAD OBJECT head", ReportAll())), 1u);   // case-insensitive
  EXPECT_EQ(RegexHits(engine->Match("bad object head trailing", ReportAll())), 0u);  // \Z is the end
  EXPECT_EQ(RegexHits(engine->Match("retry 999 times", ReportAll())), 1u);          // {,3} is {0,3}
  EXPECT_EQ(RegexHits(engine->Match("retry 1000 times", ReportAll())), 0u);
  EXPECT_EQ(RegexHits(engine->Match("call 555-0100 now", ReportAll())), 1u);        // no literal: regex db
  EXPECT_EQ(RegexHits(engine->Match("we found it", ReportAll())), 1u);
  EXPECT_EQ(RegexHits(engine->Match("we have not found it", ReportAll())), 0u);
  EXPECT_GE(engine->impl().patterns().stats().fallback, 1u);
}

TEST(Match, CatastrophicPatternGivesUpInsteadOfHanging) {
  TempDir cache;
  auto engine = FromRecords({testing::MakeRecord("t/evil", "aaaa", "(a+)+$"), testing::MakeRecord("t/ok", "boom", "boom")}, cache);
  std::string text(5000, 'a');
  text.append("!\nboom\n");
  auto r = engine->Match(text, MatchOptions{});
  ASSERT_EQ(RegexHits(r), 1u);
  EXPECT_EQ(r.matches[0].record->id, "t/ok");
}

TEST(Match, EnvironmentPicksTheFittingVariant) {
  TempDir cache;
  Record a = testing::MakeRecord("t/oom/torch1", "CUDA out of memory", "CUDA out of memory");
  a.versions.push_back({"torch >=1.0,<2.0", "", "", "", "", "active"});
  Record b = testing::MakeRecord("t/oom/torch2", "CUDA out of memory", "CUDA out of memory");
  b.versions.push_back({"PyTorch 2.2", "", "", "", "", "active"});
  b.os_specific.push_back({"linux", ""});
  auto engine = FromRecords({a, b}, cache);
  MatchOptions opt;
  opt.env = {{"torch", "1.13.1"}};
  EXPECT_EQ(engine->Match("RuntimeError: CUDA out of memory", opt).matches[0].record->id, "t/oom/torch1");
  opt.env = {{"torch", "2.2.1"}, {"os", "linux"}};
  EXPECT_EQ(engine->Match("RuntimeError: CUDA out of memory", opt).matches[0].record->id, "t/oom/torch2");
  // Without --env, versions named in the text count.
  EXPECT_EQ(engine->Match("torch 1.12.0\nRuntimeError: CUDA out of memory", MatchOptions{}).matches[0].record->id,
            "t/oom/torch1");
  EXPECT_EQ(engine->Match("torch==2.2.0\nRuntimeError: CUDA out of memory", MatchOptions{}).matches[0].record->id,
            "t/oom/torch2");
}

TEST(Match, ParseEnv) {
  auto env = ParseEnv("torch=2.2,cudnn=8.9,os=linux");
  ASSERT_TRUE(env.ok());
  ASSERT_EQ(env->size(), 3u);
  EXPECT_EQ((*env)[1].key, "cudnn");
  EXPECT_EQ((*env)[1].value, "8.9");
  EXPECT_FALSE(ParseEnv("torch").ok());
  EXPECT_FALSE(ParseEnv("=2").ok());
}

TEST(PatternCache, ReusedWhenFreshRebuiltWhenCorrupt) {
  TempDir cache;
  std::vector<std::string> patterns = {"CUDA out of memory", R"(\d{3}-\d{4})", "NCCL (timeout|watchdog)"};
  auto first = match::PatternSet::Build(patterns, cache.path().string());
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE((*first)->stats().from_cache);
  auto second = match::PatternSet::Build(patterns, cache.path().string());
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE((*second)->stats().from_cache);

  // Corrupt every cache file: the set is rebuilt and still matches.
  for (const auto& e : fs::directory_iterator(cache.path())) {
    std::string bytes = testing::ReadFile(e.path());
    bytes[bytes.size() / 2] ^= 0x5a;
    testing::WriteFile(e.path(), bytes);
  }
  auto third = match::PatternSet::Build(patterns, cache.path().string());
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE((*third)->stats().from_cache);
  std::string text = "NCCL watchdog fired\nok\ncall 555-0100\n";
  std::vector<std::size_t> starts = {0, 20, 23};
  std::vector<match::LineHit> hits;
  (*third)->Scan(text, starts, &hits);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].line, 0u);
  EXPECT_EQ(hits[0].pattern, 2u);
  EXPECT_EQ(hits[1].line, 2u);
  EXPECT_EQ(hits[1].pattern, 1u);

  // A truncated file is rejected too.
  for (const auto& e : fs::directory_iterator(cache.path())) {
    std::string bytes = testing::ReadFile(e.path());
    testing::WriteFile(e.path(), bytes.substr(0, bytes.size() / 3));
  }
  auto fourth = match::PatternSet::Build(patterns, cache.path().string());
  ASSERT_TRUE(fourth.ok());
  EXPECT_FALSE((*fourth)->stats().from_cache);

  // Different patterns never read another set's cache.
  patterns.push_back("segfault");
  auto fifth = match::PatternSet::Build(patterns, cache.path().string());
  EXPECT_FALSE((*fifth)->stats().from_cache);

  // Editing a knowledge base again and again does not fill the disk.
  for (int i = 0; i < 12; ++i) {
    patterns.push_back("edit number " + std::to_string(i));
    ASSERT_TRUE(match::PatternSet::Build(patterns, cache.path().string()).ok());
  }
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(cache.path())) files += e.path().filename().string().rfind("patterns-", 0) == 0;
  EXPECT_EQ(files, 8u);
}

// A large set is split into shards by pattern hash: it finds what one
// database finds, and an edit compiles only the shards whose patterns
// changed, the others coming from the cache.
TEST(PatternCache, ShardsFindWhatOneDatabaseFindsAndAnEditCompilesFewOfThem) {
  TempDir cache;
  std::vector<std::string> patterns;
  std::string text;
  std::vector<std::size_t> starts;
  for (int i = 0; i < 300; ++i) {
    patterns.push_back(fmt::format("widget{:03d} (stalled|froze) after \\d+ s", i));
    if (i % 7 == 0) {
      starts.push_back(text.size());
      text += fmt::format("widget{:03d} froze after 12 s\n", i);
    }
  }
  patterns.push_back("(?i)out of memory");  // broad: tried on every line without marks
  starts.push_back(text.size());
  text += "CUDA: Out of memory\n";
  auto whole = match::PatternSet::Build(patterns, "");
  ASSERT_TRUE(whole.ok());
  auto sharded = match::PatternSet::Build(SourceOf(patterns), cache.path().string(), 64);
  ASSERT_TRUE(sharded.ok());
  EXPECT_EQ((*sharded)->stats().shards, 5u);
  EXPECT_EQ((*sharded)->stats().shards_compiled, 5u);
  EXPECT_EQ((*sharded)->stats().patterns, patterns.size());
  std::vector<match::LineHit> a, b;
  (*whole)->Scan(text, starts, &a);
  (*sharded)->Scan(text, starts, &b);
  ASSERT_EQ(a.size(), 44u);
  ExpectSameHits(a, b);
  EXPECT_FALSE((*sharded)->stats().plan_from_cache);
  // Nothing changed: nothing compiled, and which shard holds which
  // pattern is read back, not worked out from every pattern again.
  auto again = match::PatternSet::Build(SourceOf(patterns), cache.path().string(), 64);
  EXPECT_EQ((*again)->stats().shards_compiled, 0u);
  EXPECT_TRUE((*again)->stats().from_cache);
  EXPECT_TRUE((*again)->stats().plan_from_cache);
  std::vector<match::LineHit> from_plan;
  (*again)->Scan(text, starts, &from_plan);
  EXPECT_EQ(from_plan.size(), a.size());
  // One regex edited: the shard it leaves and the one it joins, at most.
  patterns[140] = "widget140 (stalled|froze|hung) after \\d+ s";
  auto edited = match::PatternSet::Build(SourceOf(patterns), cache.path().string(), 64);
  EXPECT_FALSE((*edited)->stats().plan_from_cache);
  EXPECT_GE((*edited)->stats().shards_compiled, 1u);
  EXPECT_LE((*edited)->stats().shards_compiled, 2u);
  std::vector<match::LineHit> c;
  (*edited)->Scan("widget140 hung after 3 s\n", {0}, &c);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].pattern, 140u);
  // A record removed from the middle: every later pattern is renumbered,
  // and only the removed pattern's shard is compiled again.
  patterns.erase(patterns.begin() + 10);
  auto removed = match::PatternSet::Build(SourceOf(patterns), cache.path().string(), 64);
  EXPECT_EQ((*removed)->stats().shards_compiled, 1u);
  std::vector<match::LineHit> d;
  (*removed)->Scan("widget287 stalled after 9 s\n", {0}, &d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].pattern, 286u);
}

// A long text read through several shards: their any-line literals are
// looked for in one pass over one database made of all of them, and the
// hits are those of a set in one shard, line for line and span for span,
// with and without marked lines. Literals longer than Hyperscan's keys
// that share their first 16 bytes ("quux_controller_") exercise the
// second step of the lookup through the merged database.
TEST(PatternCache, ShardsReadALongTextInOnePassAndFindWhatOneDatabaseFinds) {
  TempDir cache;
  std::vector<std::string> patterns;
  for (int i = 0; i < 120; ++i) {
    patterns.push_back(fmt::format("frobnicator_{:03d}_state=(on|off)", i));
    patterns.push_back(fmt::format("quux_controller_{:03d}_overheated at \\d+ C", i));
    patterns.push_back(fmt::format("job {:03d} failed: disk (full|gone)", i));  // a problem word: marked lines only
  }
  std::string text;
  std::vector<std::size_t> starts;
  std::vector<uint8_t> marks;
  auto add = [&](const std::string& line, bool marked) {
    starts.push_back(text.size());
    text += line + "\n";
    marks.push_back(marked ? 1 : 0);
  };
  for (int i = 0; text.size() < 3 * match::PatternShard::kShortText; ++i) {
    add(fmt::format("{:05d} INFO step {} of the build went by without a word", i, i), false);
    if (i % 5 == 0) add(fmt::format("frobnicator_{:03d}_state=on, quux_controller_{:03d}_overheated at {} C", i % 120, (i * 7) % 120, i), false);
    if (i % 9 == 0) add(fmt::format("ERROR job {:03d} failed: disk full", i % 120), true);
  }
  auto whole = match::PatternSet::Build(patterns, "");
  ASSERT_TRUE(whole.ok());
  ASSERT_EQ((*whole)->stats().shards, 1u);
  const match::PatternSource source = SourceOf(patterns);
  auto sharded = match::PatternSet::Build(source, cache.path().string(), 64);
  ASSERT_TRUE(sharded.ok());
  ASSERT_GE((*sharded)->stats().shards, 4u);
  auto merged_files = [&] {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(cache.path())) n += e.path().filename().string().starts_with("anyline-");
    return n;
  };
  EXPECT_EQ(merged_files(), 0u) << "made on the first long scan, not with the shards";
  const std::vector<const std::vector<uint8_t>*> ways = {nullptr, &marks};
  for (const std::vector<uint8_t>* marked : ways) {
    std::vector<match::LineHit> a, b;
    (*whole)->Scan(text, starts, &a, marked);
    (*sharded)->Scan(text, starts, &b, marked);
    ASSERT_GT(a.size(), 150u);
    ExpectSameHits(a, b);
    const std::set<uint32_t> kinds = [&] {
      std::set<uint32_t> k;
      for (const match::LineHit& h : b) k.insert(h.pattern % 3);
      return k;
    }();
    EXPECT_EQ(kinds.size(), 3u) << "every kind of pattern is found";
  }
  ASSERT_EQ(merged_files(), 1u);
  // Another process with the same patterns reads the merged database
  // back (the file is not written again), and finds the same.
  auto merged_file = [&] {
    for (const auto& e : fs::directory_iterator(cache.path())) {
      if (e.path().filename().string().starts_with("anyline-")) return e.path();
    }
    return fs::path();
  };
  const fs::path first = merged_file();
  fs::last_write_time(first, fs::file_time_type::clock::now() - std::chrono::hours(1));
  const auto written = fs::last_write_time(first);
  auto again = match::PatternSet::Build(source, cache.path().string(), 64);
  std::vector<match::LineHit> a, c;
  (*whole)->Scan(text, starts, &a);
  (*again)->Scan(text, starts, &c);
  EXPECT_EQ(a.size(), c.size());
  EXPECT_EQ(merged_file(), first);
  EXPECT_EQ(fs::last_write_time(first), written);
  // A damaged file is not trusted: the database is compiled again, the
  // hits are the same, and the file is written anew.
  {
    std::fstream f(first, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(first) / 2));
    f.put('\x5a');
  }
  auto damaged = match::PatternSet::Build(source, cache.path().string(), 64);
  std::vector<match::LineHit> d;
  (*damaged)->Scan(text, starts, &d);
  EXPECT_EQ(a.size(), d.size());
  EXPECT_NE(fs::last_write_time(first), written);
}

// The prefilter must never lose a true hit: on the corpus, every record
// whose regex matches its own signature (checked directly with PCRE2) is
// found among the matches for that signature.
TEST(Match, CorpusPrefilterLosesNothing) {
  KEDB_REQUIRE_SHARED(shared);
  auto engine = Engine::Open((shared / "corpora/deadends/canons").string(),
                             OpenOptions{.cache_dir = KEDB_TEST_CACHE});
  ASSERT_TRUE(engine.ok());
  MatchOptions all;
  all.top = 100000;
  std::size_t expected = 0, found = 0;
  for (const Record& r : (*engine)->kb().records()) {
    auto re = regex::CompilePython(r.regex);
    ASSERT_TRUE(re.ok()) << r.id;
    if (!(*re).Search(r.signature)) continue;
    ++expected;
    auto result = (*engine)->Match(r.signature, all);
    bool hit = std::any_of(result.matches.begin(), result.matches.end(),
                           [&](const Match& m) { return m.record == &r; });
    EXPECT_TRUE(hit) << r.id << ": " << r.regex;
    found += hit;
  }
  EXPECT_EQ(expected, 2312u);
  EXPECT_EQ(found, expected);
}

}  // namespace
}  // namespace kedb

namespace kedb {
namespace {

// When no pattern fires, a line that reads like a signature still finds its
// record, marked fuzzy, and ranks below any regex hit.
TEST(Match, FuzzyCandidateWhenNoPatternFires) {
  testing::TempDir cache;
  Record a;
  a.id = "t/oom";
  a.signature = "torch.cuda.OutOfMemoryError: CUDA out of memory";
  a.regex = "torch\\.cuda\\.OutOfMemoryError";
  a.domain = "cuda";
  Record b;
  b.id = "t/disk";
  b.signature = "OSError: [Errno 28] No space left on device";
  b.regex = "No space left on device";
  b.domain = "os";
  auto engine = Engine::FromKnowledgeBase(KnowledgeBase::FromRecords({a, b}), cache.path().string());
  ASSERT_TRUE(engine.ok());
  MatchResult r = (*engine)->Match("CUDA error: out of memory", MatchOptions{});
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches[0].record->id, "t/oom");
  EXPECT_EQ(r.matches[0].kind, MatchKind::kFuzzy);
  r = (*engine)->Match("CUDA error: out of memory\nOSError: [Errno 28] No space left on device", MatchOptions{});
  ASSERT_EQ(r.matches.size(), 2u);
  EXPECT_EQ(r.matches[0].kind, MatchKind::kRegex);
  EXPECT_EQ(r.matches[0].record->id, "t/disk");
  EXPECT_EQ(r.matches[1].kind, MatchKind::kFuzzy);
  EXPECT_TRUE((*engine)->Match("all good here", MatchOptions{}).abstained);
}

}  // namespace
}  // namespace kedb

namespace kedb {
namespace {

// Patterns with no literal go through Hyperscan's UTF-8 mode, which needs
// valid UTF-8: invalid bytes elsewhere in the chunk must not hide a hit.
// The literal check turns a line away only when it lacks a literal every
// match needs.
TEST(LiteralCheck, NeedsOneBranchWhole) {
  auto parsed = regex::ParsePythonRegex(R"((session.*fixation|session.*hijack)|token.*(expired|revoked))");
  ASSERT_TRUE(parsed.ok());
  match::LiteralIds ids;
  match::LiteralCheck check((*parsed), &ids);
  ASSERT_FALSE(check.empty());
  auto may = [&](std::string_view line) {
    std::string folded;
    match::FoldLine(line, &folded);
    match::LineLiterals memo;
    memo.Reset(folded);
    return check.MayMatch(&memo);
  };
  EXPECT_TRUE(may("SESSION FIXATION detected"));
  EXPECT_TRUE(may("token was Revoked"));
  EXPECT_FALSE(may("session opened for user"));      // "session" alone
  EXPECT_FALSE(may("fixation without the other word"));
  EXPECT_TRUE(may("session hijack?"));
}

TEST(LiteralCheck, OptionalPartsAddNothing) {
  // Each of these can match without any literal of the alternation.
  for (const char* re : {"(foo|bar)?baz", "baz(foo.*x|)", "(?:(?=foo)|bar)baz"}) {
    auto parsed = regex::ParsePythonRegex(re);
    ASSERT_TRUE(parsed.ok()) << re;
    match::LiteralIds ids;
    match::LiteralCheck check((*parsed), &ids);
    std::string folded = "xx baz xx";
    match::LineLiterals memo;
    memo.Reset(folded);
    EXPECT_TRUE(check.MayMatch(&memo)) << re;
  }
}

// The corpus's records, their patterns, and one PatternSet over them.
struct CorpusSet {
  KnowledgeBase kb;
  std::vector<std::string> patterns;
  std::unique_ptr<match::PatternSet> set;
};

std::optional<CorpusSet> LoadCorpusSet(const fs::path& shared) {
  auto kb = KnowledgeBase::Load((shared / "corpora/deadends/canons").string(), {});
  if (!kb.ok()) return std::nullopt;
  CorpusSet corpus{std::move(kb).value(), {}, nullptr};
  for (const Record& r : corpus.kb.records()) corpus.patterns.push_back(r.regex);
  auto set = match::PatternSet::Build(corpus.patterns, KEDB_TEST_CACHE);
  if (!set.ok()) return std::nullopt;
  corpus.set = std::move(set).value();
  return corpus;
}

// Lines laid end to end as PatternSet::Scan takes them.
struct LinesText {
  std::string text;
  std::vector<std::size_t> starts;
  void Add(std::string_view line) {
    starts.push_back(text.size());
    text.append(line);
    text.push_back('\n');
  }
};

// The corpus's PatternSet, loaded once for the tests that use it; they are
// skipped when ../shared is absent.
class PatternSetOnCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    KEDB_REQUIRE_SHARED(shared);
    static std::optional<CorpusSet> corpus = LoadCorpusSet(shared);
    ASSERT_TRUE(corpus);
    patterns = corpus->patterns;
    kb = &corpus->kb;
    set = corpus->set.get();
  }
  std::span<const std::string> patterns;
  const KnowledgeBase* kb = nullptr;
  const match::PatternSet* set = nullptr;
};

// The whole one-pass matcher (prefilter, literal check, confirmation)
// against PCRE2 run on every line, for every eighth corpus pattern over every
// signature and a slice of log noise: the same hits, no more, no fewer.
TEST_F(PatternSetOnCorpus, ScanEqualsBruteForce) {
  LinesText lines;
  const std::string& text = lines.text;
  const std::vector<std::size_t>& starts = lines.starts;
  for (const Record& r : kb->records()) {
    lines.Add(r.signature);
    for (const auto& a : r.aliases) lines.Add(a);
  }
  for (int i = 0; i < 500; ++i) {
    lines.Add(fmt::format("2026-03-{:02}T10:{:02}:00Z INFO worker-{} session {} cache hit ratio 0.{} device cuda:{}",
                         1 + i % 28, i % 60, i, i * 7919, i % 97, i % 8));
  }
  std::vector<match::LineHit> hits;
  set->Scan(text, starts, &hits);
  std::set<std::pair<uint32_t, uint32_t>> got, want;
  for (const auto& h : hits) {
    if (h.pattern % 8 == 0) got.insert({h.line, h.pattern});
  }
  for (uint32_t p = 0; p < patterns.size(); p += 8) {
    auto re = regex::CompilePython(patterns[p]);
    ASSERT_TRUE(re.ok()) << patterns[p];
    const auto& regex = (*re);
    for (uint32_t i = 0; i < starts.size(); ++i) {
      if (regex.Search(logs::LineText(text, starts, i))) want.insert({i, p});
    }
  }
  EXPECT_GT(want.size(), 300u);
  std::vector<std::pair<uint32_t, uint32_t>> missed, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missed));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
  for (auto [line, p] : missed) ADD_FAILURE() << "missed: " << patterns[p] << " on " << logs::LineText(text, starts, line);
  for (auto [line, p] : extra) ADD_FAILURE() << "extra: " << patterns[p] << " on " << logs::LineText(text, starts, line);
}

TEST(PatternSet, RegexDatabaseSurvivesInvalidUtf8) {
  testing::TempDir cache;
  auto set = match::PatternSet::Build({R"(\d{3}-\d{4})"}, cache.path().string());
  ASSERT_TRUE(set.ok());
  ASSERT_EQ((*set)->stats().fallback, 1u);
  std::string text = "bad \xff\xfe bytes\ncall 555-0100\n";
  std::vector<match::LineHit> hits;
  (*set)->Scan(text, {0, 15}, &hits);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].line, 1u);
}

TEST(Prefilter, TopLevelBranches) {
  using V = std::vector<std::string>;
  EXPECT_EQ(match::TopLevelBranches("a|b.*c"), (V{"a", "b.*c"}));
  EXPECT_EQ(match::TopLevelBranches("(tiananmen|6.4|june 4.*1989)"), (V{"tiananmen", "6.4", "june 4.*1989"}));
  EXPECT_EQ(match::TopLevelBranches("(?:x|y)"), (V{"x", "y"}));
  EXPECT_EQ(match::TopLevelBranches("(?P<name>x|y)"), (V{"x", "y"}));
  EXPECT_EQ(match::TopLevelBranches(R"([|(]x|\|y)"), (V{"[|(]x", R"(\|y)"}));
  EXPECT_EQ(match::TopLevelBranches("(a|b)c|d"), (V{"(a|b)c", "d"}));
  // Nothing to split, or a branch would mean something else alone.
  EXPECT_TRUE(match::TopLevelBranches("abc").empty());
  EXPECT_TRUE(match::TopLevelBranches("(a|b)(c|d)").empty());
  EXPECT_TRUE(match::TopLevelBranches("(?i)a|b").empty());
  EXPECT_TRUE(match::TopLevelBranches("a(?i:b)|c").empty());
  EXPECT_TRUE(match::TopLevelBranches(R"((a)x|\1)").empty());
  EXPECT_TRUE(match::TopLevelBranches("(?=a|b)").empty());
  EXPECT_TRUE(match::TopLevelBranches("(a|b").empty());
}

// A pattern without a factor of its own goes to the regex database branch
// by branch: only `6.4` does, `tiananmen` is found as a literal.
TEST(PatternSet, OnlyBareBranchesGoToTheRegexDatabase) {
  testing::TempDir cache;
  auto set = match::PatternSet::Build({"(tiananmen|6.4)"}, cache.path().string());
  ASSERT_TRUE(set.ok());
  EXPECT_EQ((*set)->stats().fallback, 1u);
  EXPECT_EQ((*set)->stats().literals, 1u);
  std::string text = "Tiananmen square\nversion 6.4 released\nnothing here\n";
  std::vector<match::LineHit> hits;
  (*set)->Scan(text, {0, 17, 38}, &hits);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].line, 0u);
  EXPECT_EQ(hits[1].line, 1u);
}

// Broad literals are looked for on marked lines only; distinctive ones and
// exact matching without marks are unaffected.
TEST(PatternSet, BroadLiteralsOnlyOnMarkedLines) {
  testing::TempDir cache;
  ASSERT_FALSE(logs::HoldsProblemWord("inotify_add_watch"));
  auto set = match::PatternSet::Build({R"(mode=\d)", "inotify_add_watch", R"(\d\.\dx)"}, cache.path().string());
  ASSERT_TRUE(set.ok());
  EXPECT_EQ((*set)->stats().broad_literals, 1u);  // "mode="
  EXPECT_TRUE((*set)->has_broad());
  std::string text = "INFO mode=3 1.5x\nERROR mode=4 2.0x\nINFO inotify_add_watch\n";
  std::vector<std::size_t> starts = {0, 17, 35};
  auto scan = [&](const std::vector<uint8_t>* marks) {
    std::vector<match::LineHit> hits;
    (*set)->Scan(text, starts, &hits, marks);
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto& h : hits) out.emplace_back(h.line, h.pattern);
    return out;
  };
  using V = std::vector<std::pair<uint32_t, uint32_t>>;
  std::vector<uint8_t> marks = {0, 1, 0};
  EXPECT_EQ(scan(&marks), (V{{1, 0}, {1, 2}, {2, 1}}));
  EXPECT_EQ(scan(nullptr), (V{{0, 0}, {0, 2}, {1, 0}, {1, 2}, {2, 1}}));
  std::vector<uint8_t> none = {0, 0, 0};
  EXPECT_EQ(scan(&none), (V{{2, 1}}));
}

// A distinctive literal that holds a problem word is looked for on marked
// lines only, where a log scan's marks always put it: found as before, on
// lines of any level, and grouped by gate like the others.
TEST(PatternSet, LiteralsHoldingAProblemWordAreFoundOnTheLinesThatHoldThem) {
  testing::TempDir cache;
  const std::vector<std::string> patterns = {"CUDNN_STATUS_BAD_PARAM", R"(failed to mount volume \w+)",
                                             "inotify_add_watch"};
  auto set = match::PatternSet::Build(patterns, cache.path().string());
  ASSERT_TRUE(set.ok());
  EXPECT_EQ((*set)->stats().literals, 3u);
  EXPECT_EQ((*set)->stats().broad_literals, 2u);
  LinesText lines;
  lines.Add("INFO CUDNN_STATUS_BAD_PARAM seen in a probe");
  lines.Add("DEBUG retry: failed to mount volume data");
  lines.Add("INFO inotify_add_watch");
  lines.Add("INFO all is well");
  lines.Add("cudnn_status_bad_param and FAILED TO MOUNT VOLUME x");
  std::vector<uint8_t> marks;
  logs::MarkTriggerLines(lines.text, lines.starts, /*problem_lines=*/true, &marks);
  EXPECT_EQ(marks[2], 0);
  std::vector<match::LineHit> all, marked;
  (*set)->Scan(lines.text, lines.starts, &all);
  (*set)->Scan(lines.text, lines.starts, &marked, &marks);
  using V = std::vector<std::pair<uint32_t, uint32_t>>;
  auto pairs = [](const std::vector<match::LineHit>& hits) {
    V out;
    for (const auto& h : hits) out.emplace_back(h.line, h.pattern);
    return out;
  };
  EXPECT_EQ(pairs(all), (V{{0, 0}, {1, 1}, {2, 2}, {4, 0}, {4, 1}}));
  EXPECT_EQ(pairs(marked), pairs(all));
}

// The corpus with problem lines marked as a log scan marks them: every
// match on a problem line is still found, nothing false is added, and the
// distinctive literals still find matches on the other lines.
TEST_F(PatternSetOnCorpus, ScanOfProblemLines) {
  LinesText lines;
  for (const Record& r : kb->records()) lines.Add(r.signature);
  const std::string& text = lines.text;
  const std::vector<std::size_t>& starts = lines.starts;
  std::vector<uint8_t> marks;
  logs::MarkTriggerLines(text, starts, /*problem_lines=*/true, &marks);
  std::vector<match::LineHit> all, marked;
  set->Scan(text, starts, &all);
  set->Scan(text, starts, &marked, &marks);
  std::set<std::pair<uint32_t, uint32_t>> want, got;
  for (const auto& h : all) want.insert({h.line, h.pattern});
  std::size_t unmarked_found = 0;
  for (const auto& h : marked) {
    got.insert({h.line, h.pattern});
    EXPECT_TRUE(want.count({h.line, h.pattern})) << "extra: " << patterns[h.pattern];
    unmarked_found += marks[h.line] == 0;
  }
  // Elsewhere, every match a distinctive literal of the pattern leads to:
  // the rule as the prefilter states it, whichever index holds the literal.
  std::size_t by_distinctive = 0;
  for (auto [line, p] : want) {
    if (marks[line]) {
      EXPECT_TRUE(got.count({line, p})) << "missed on a problem line: " << patterns[p];
      continue;
    }
    auto parsed = regex::ParsePythonRegex(patterns[p]);
    ASSERT_TRUE(parsed.ok());
    const match::PrefilterPlan plan = match::PlanPrefilter(std::string(patterns[p]), *parsed);
    if (!match::FoundOnAnyLine(plan, regex::FoldLiteralCase(logs::LineText(text, starts, line)))) continue;
    ++by_distinctive;
    EXPECT_TRUE(got.count({line, p})) << "missed on an unmarked line: " << patterns[p];
  }
  EXPECT_GT(by_distinctive, 300u);
  EXPECT_GT(unmarked_found, 300u);
  // Most signatures read as a problem.
  EXPECT_GT(std::count(marks.begin(), marks.end(), 0), 0);
  EXPECT_LT(std::count(marks.begin(), marks.end(), 0), static_cast<long>(marks.size() / 3));
}

}  // namespace
}  // namespace kedb
