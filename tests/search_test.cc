// Search by words: the tokenizer, BM25 ranking, and `kedb search`.
#include <algorithm>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kedb/engine.h"
#include "search/bm25.h"
#include "search/tokenizer.h"
#include "test_util.h"

namespace kedb {
namespace {

namespace fs = std::filesystem;
using testing::RunKedb;
using testing::TempDir;

// Search reads Latin text by the matcher's word rules (identifier parts,
// stems) but keeps values, and cuts Chinese into bigrams.
TEST(SearchTokenizer, ReadsWordsAsMatchingDoesAndSplitsChinese) {
  auto t = search::Tokenize("RuntimeError: CUDNN_STATUS_BAD_PARAM in torch.cuda (E0502, TS2307)");
  std::vector<std::string> want = {"runtimeerror", "runtim", "error", "cudnn_status_bad_param", "cudnn", "status",
                                   "bad", "param", "in", "torch", "cuda", "e0502", "0502", "ts2307", "ts", "2307"};
  EXPECT_EQ(t, want);
  // A phrase finds the identifier that spells it, whatever the inflection.
  auto words = search::Tokenize("ConnectionRefusedError while connecting");
  for (const char* w : {"connectionrefusederror", "connect", "refus", "error"}) {
    EXPECT_NE(std::find(words.begin(), words.end(), w), words.end()) << w;
  }
  EXPECT_EQ(search::Tokenize("connection refused"), search::Tokenize("connecting refused"));
  // Paths and quoted names are searchable, unlike in matching.
  EXPECT_EQ(search::Tokenize("'/etc/hosts'"), (std::vector<std::string>{"etc", "host"}));
  EXPECT_EQ(search::Tokenize("将批量归一化 epsilon 设置为 0"),
            (std::vector<std::string>{"将批", "批量", "量归", "归一", "一化", "epsilon", "设置", "置为"}));
  EXPECT_EQ(search::Tokenize("错"), (std::vector<std::string>{"错"}));
  // Fullwidth and CJK punctuation separate words and are none.
  EXPECT_EQ(search::Tokenize("错误：显存不足（OOM）。"), (std::vector<std::string>{"错误", "显存", "存不", "不足", "oom"}));
  EXPECT_EQ(search::Tokenize("显存OOM"), (std::vector<std::string>{"显存", "oom"}));
}

std::shared_ptr<const Engine> Bundled(const TempDir& cache) {
  auto e = Engine::Open((testing::SourceDir() / "kb").string(), OpenOptions{.cache_dir = cache.path().string()});
  EXPECT_TRUE(e.ok());
  return e.ok() ? e.value() : nullptr;
}

// Seed 000 (batch normalization with epsilon 0) answers both questions first.
TEST(Search, SeedFirstInEnglishAndChinese) {
  TempDir cache;
  auto engine = Bundled(cache);
  ASSERT_TRUE(engine);
  for (const char* query : {"batch norm epsilon zero", "批量归一化 epsilon"}) {
    SearchResult r = engine->Search(query, SearchOptions{});
    ASSERT_FALSE(r.hits.empty()) << query;
    EXPECT_EQ(r.hits[0].record->id, "cuda/cudnn-bn-epsilon-nan") << query;
    EXPECT_GT(r.hits[0].score, r.hits[1].score) << query;
  }
  // An error code finds its records; words nobody wrote find nothing.
  SearchResult code = engine->Search("CUBLAS_STATUS_ALLOC_FAILED", SearchOptions{.top = 3, .domain = ""});
  ASSERT_FALSE(code.hits.empty());
  EXPECT_EQ(code.hits[0].record->id, "cuda/cublas-alloc-failed");
  EXPECT_TRUE(engine->Search("zzyzx quux", SearchOptions{}).hits.empty());
}

// The index read back from its bytes answers exactly as the one built;
// damaged bytes, or bytes of another knowledge base, are refused.
TEST(Search, IndexSurvivesItsCacheFileAndRefusesDamage) {
  auto kb = KnowledgeBase::Load((testing::SourceDir() / "kb").string(), {});
  ASSERT_TRUE(kb.ok());
  search::Bm25Index built(*kb);
  std::string bytes = built.Serialize();
  auto read = search::Bm25Index::Deserialize(*kb, bytes);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->terms(), built.terms());
  for (const char* query : {"batch norm epsilon zero", "批量归一化 epsilon", "nccl timeout", "cudnn"}) {
    auto a = built.Search(query, 10), b = read->Search(query, 10);
    ASSERT_EQ(a.size(), b.size()) << query;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].record, b[i].record) << query;
      EXPECT_DOUBLE_EQ(a[i].score, b[i].score) << query;
      EXPECT_EQ(a[i].terms, b[i].terms) << query;
    }
  }
  EXPECT_FALSE(search::Bm25Index::Deserialize(*kb, bytes.substr(0, bytes.size() / 2)));
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x40;
  EXPECT_FALSE(search::Bm25Index::Deserialize(*kb, flipped));
  KnowledgeBase smaller = KnowledgeBase::FromRecords({testing::MakeRecord("t/a", "x", "x")});
  EXPECT_FALSE(search::Bm25Index::Deserialize(smaller, bytes));
  // The key follows the content the index reads.
  std::vector<Record> edited(kb->records().begin(), kb->records().end());
  uint64_t key = search::Bm25Index::ContentKey(*kb);
  edited[0].root_cause += " (edited)";
  EXPECT_NE(search::Bm25Index::ContentKey(KnowledgeBase::FromRecords(std::move(edited))), key);
}

// A second engine on the same cache folder reads the index the first wrote.
TEST(Search, IndexIsKeptInTheCacheFolder) {
  TempDir cache;
  {
    auto engine = Bundled(cache);
    ASSERT_TRUE(engine);
    EXPECT_FALSE(engine->Search("batch norm epsilon zero", SearchOptions{}).hits.empty());
  }
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(cache.path())) {
    files += e.path().filename().string().rfind("bm25-", 0) == 0;
  }
  EXPECT_EQ(files, 1u);
  auto again = Bundled(cache);
  ASSERT_TRUE(again);
  SearchResult r = again->Search("batch norm epsilon zero", SearchOptions{});
  ASSERT_FALSE(r.hits.empty());
  EXPECT_EQ(r.hits[0].record->id, "cuda/cudnn-bn-epsilon-nan");
  // A damaged file is not trusted: the index is built again and rewritten.
  fs::path file;
  for (const auto& e : fs::directory_iterator(cache.path())) {
    if (e.path().filename().string().rfind("bm25-", 0) == 0) file = e.path();
  }
  std::string good = testing::ReadFile(file);
  ASSERT_FALSE(good.empty());
  testing::WriteFile(file, std::string(good.size(), 'x'));
  auto third = Bundled(cache);
  ASSERT_TRUE(third);
  SearchResult r3 = third->Search("batch norm epsilon zero", SearchOptions{});
  ASSERT_FALSE(r3.hits.empty());
  EXPECT_EQ(r3.hits[0].record->id, "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(testing::ReadFile(file), good);
}

TEST(Search, Cli) {
  std::string kb = "--kb '" + (testing::SourceDir() / "kb").string() + "'";
  auto r = RunKedb("search --json --top 2 " + kb + " NCCL watchdog timeout");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["hits"].size(), 2u);
  EXPECT_EQ(j["hits"][0]["id"], "nccl/watchdog-timeout");
  auto zh = RunKedb("search --lang zh " + kb + " 批量归一化 epsilon");
  EXPECT_EQ(zh.exit_code, 0);
  EXPECT_NE(zh.out.find("1. cuda/cudnn-bn-epsilon-nan"), std::string::npos);
  EXPECT_EQ(RunKedb("search " + kb + " zzyzx").exit_code, 1);
  EXPECT_EQ(RunKedb("search " + kb).exit_code, 2);
}

// A search costs the same at any size: words in more records than its
// posting budget (8,192) only refine what rarer words found. The answers
// stay those of a full scoring: the record with the rare word and a
// common one before the record with the rare word alone, and a domain
// filter still reaches records deep in the index.
TEST(Search, CommonWordsStayBoundedAndKeepTheOrder) {
  std::vector<Record> records;
  for (int i = 0; i < 30000; ++i) {
    Record r;
    r.id = "gen/r" + std::to_string(i);
    r.domain = i == 29999 ? "rare" : "gen";
    // "flush" is in a third of the records: too common for the budget, not
    // so common that it weighs nothing.
    r.signature = fmt::format("shard writer could not {} segment {}", i % 3 == 0 ? "flush" : "close", i % 7);
    r.regex = "x";
    records.push_back(std::move(r));
  }
  records[29990].signature = "shard writer could not flush zebraquota";
  records[29991].signature = "shard writer could not close zebraquota";
  KnowledgeBase kb = KnowledgeBase::FromRecords(std::move(records));
  search::Bm25Index index(kb);
  auto hits = index.Search("flush zebraquota", 5);
  ASSERT_EQ(hits.size(), 2u);  // only the rare word's records are scored
  EXPECT_EQ(kb.records()[hits[0].record].id, "gen/r29990");
  EXPECT_EQ(kb.records()[hits[1].record].id, "gen/r29991");
  EXPECT_GT(hits[0].score, hits[1].score);
  EXPECT_EQ(hits[0].terms, (std::vector<std::string>{"flush", "zebraquota"}));
  EXPECT_EQ(hits[1].terms, (std::vector<std::string>{"zebraquota"}));
  // Only common words: still an answer.
  EXPECT_EQ(index.Search("shard writer could not flush", 3).size(), 3u);
  // The filter is applied while scoring, not to a short list of the best.
  auto rare = index.Search("shard writer could not close", 3,
                           [&](std::size_t i) { return kb.records()[i].domain == "rare"; });
  ASSERT_EQ(rare.size(), 1u);
  EXPECT_EQ(kb.records()[rare[0].record].id, "gen/r29999");
}

}  // namespace
}  // namespace kedb
