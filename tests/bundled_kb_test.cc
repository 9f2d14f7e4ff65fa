// The knowledge base shipped in kb/: complete records, clean lint, and the
// example logs in examples/ finding what they are meant to show.
#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kedb/engine.h"
#include "kedb/lint.h"
#include "test_util.h"

namespace kedb {
namespace {

namespace fs = std::filesystem;
using testing::RunKedb;
using testing::SourceDir;

// The three seed records ship exactly as specified, known problems included.
const std::set<std::string> kSeeds = {"cuda/cudnn-batch-norm-bad-param", "cuda/cudnn-bn-epsilon-nan",
                                      "cuda/cudnn-rnn-double-backward"};

std::string Kb() { return "--kb '" + (SourceDir() / "kb").string() + "'"; }

KnowledgeBase LoadBundled() {
  auto kb = KnowledgeBase::Load((SourceDir() / "kb").string(), LoadOptions{.strict = true});
  EXPECT_TRUE(kb.ok()) << kb.status().message();
  return std::move(kb).value();
}

TEST(BundledKb, CoversTheStack) {
  KnowledgeBase kb = LoadBundled();
  std::map<std::string, int> by_domain;
  for (const Record& r : kb.records()) ++by_domain[r.domain];
  EXPECT_GE(kb.size(), 300u);
  for (const char* domain : {"cuda", "nccl", "pytorch", "tensorflow", "jax", "mxnet", "huggingface", "install",
                             "deepspeed", "inference", "triton", "containers", "slurm"}) {
    EXPECT_GE(by_domain[domain], 5) << domain;
  }
  for (const std::string& id : kSeeds) EXPECT_NE(kb.Find(id), nullptr) << id;
  EXPECT_NE(kb.Find("mxnet/batchnorm-running-var-gpu"), nullptr);
  // cuDNN, cuBLAS and NCCL statuses each have records of their own.
  for (const char* code : {"CUDNN_STATUS_NOT_SUPPORTED", "CUBLAS_STATUS_EXECUTION_FAILED", "CUBLAS_STATUS_ALLOC_FAILED"}) {
    bool found = std::any_of(kb.records().begin(), kb.records().end(),
                             [&](const Record& r) { return r.error_code == code; });
    EXPECT_TRUE(found) << code;
  }
}

// What every record written for kb/ carries (the seeds are kept as given).
// Only what a source bears out is written: a record whose threads show no
// fix that fails has no dead end rather than an invented one, so those
// parts are held to shares of the whole instead (measured: 78 % of records
// have a dead end, 92 % versions, 94 % aliases, 92 % transition edges,
// 84 % a docs page).
TEST(BundledKb, EveryRecordIsComplete) {
  KnowledgeBase kb = LoadBundled();
  std::size_t written = 0, dead_ends = 0, versions = 0, aliases = 0, edges = 0, docs = 0;
  for (const Record& r : kb.records()) {
    if (kSeeds.count(r.id)) continue;
    SCOPED_TRACE(r.id);
    ++written;
    EXPECT_FALSE(r.signature_zh.empty());
    EXPECT_FALSE(r.root_cause.empty());
    EXPECT_FALSE(r.root_cause_zh.empty());
    EXPECT_GE(r.workarounds.size(), 1u);
    for (const auto& d : r.dead_ends) {
      EXPECT_FALSE(d.action.empty());
      EXPECT_FALSE(d.why_fails.empty());
    }
    ASSERT_EQ(r.workarounds_zh.size(), r.workarounds.size());
    for (std::size_t i = 0; i < r.workarounds.size(); ++i) EXPECT_NE(r.workarounds_zh[i], r.workarounds[i].action);
    EXPECT_EQ(r.verification_tier, "source_verified");
    EXPECT_LE(r.confidence.value_or(1), 0.9);  // written from public sources, not reproduced here
    dead_ends += !r.dead_ends.empty();
    versions += !r.versions.empty();
    aliases += !r.aliases.empty();
    edges += !(r.transition_graph.leads_to.empty() && r.transition_graph.preceded_by.empty() &&
               r.transition_graph.frequently_confused_with.empty());
    docs += !r.official_doc_url.empty();
  }
  ASSERT_GT(written, 0u);
  auto share = [&](std::size_t n) { return static_cast<double>(n) / static_cast<double>(written); };
  EXPECT_GE(share(dead_ends), 0.75);
  EXPECT_GE(share(versions), 0.90);
  EXPECT_GE(share(aliases), 0.90);
  EXPECT_GE(share(edges), 0.90);
  EXPECT_GE(share(docs), 0.80);
}

// `kedb lint --strict` finds nothing but the seeds' known problems.
TEST(BundledKb, LintIsCleanApartFromTheSeeds) {
  auto all = RunKedb("lint --json --strict " + Kb());
  EXPECT_EQ(all.exit_code, 2);  // the seeds' warnings
  auto j = nlohmann::json::parse(all.out);
  std::map<std::string, int> by_rule;
  for (const auto& d : j["diagnostics"]) {
    EXPECT_TRUE(kSeeds.count(d["id"].get<std::string>())) << d.dump();
    ++by_rule[d["rule"].get<std::string>()];
  }
  // One seed lists real occurrences that do not hold its specified
  // signature; two translate RuntimeError in their Chinese signature.
  EXPECT_EQ(by_rule, (std::map<std::string, int>{{"empty-action", 7},
                                                 {"untranslated-zh", 6},
                                                 {"stale", 3},
                                                 {"shadowing", 1},
                                                 {"unattested", 1},
                                                 {"zh-class-name", 2}}));

}

// Each record's own signature is matched, and that record comes first.
TEST(BundledKb, EverySignatureFindsItsRecordFirst) {
  testing::TempDir cache;
  auto engine = Engine::Open((SourceDir() / "kb").string(), OpenOptions{.cache_dir = cache.path().string()});
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  for (const Record& r : (*engine)->kb().records()) {
    auto result = (*engine)->Match(r.signature, MatchOptions{});
    ASSERT_FALSE(result.matches.empty()) << r.id;
    EXPECT_EQ(result.matches[0].record->id, r.id) << r.signature;
    EXPECT_EQ(result.matches[0].kind, MatchKind::kRegex) << r.id;
  }
}

// The example logs: each yields the records it was written to show, at the
// line where the error is, and nothing unrelated.
TEST(BundledKb, ExampleLogsYieldTheirRecords) {
  struct Case {
    const char* log;
    std::vector<std::pair<std::string, int>> expected;  // record, line
  };
  const std::vector<Case> cases = {
      {"train-cudnn.log", {{"cuda/cudnn-bn-epsilon-nan", 3018}}},
      {"failed-install.log", {{"install/cuda-home-not-set", 80}, {"install/flash-attn-build-failed", 84}}},
      {"pytest-cuda.log", {{"cuda/device-side-assert", 423}}},
      // torchrun's report of the failed worker is a block of its own.
      {"nccl-timeout.log", {{"nccl/watchdog-timeout", 1510}, {"pytorch/elastic-child-failed", 1521}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.log);
    auto r = RunKedb("scan --json " + Kb() + " '" + (SourceDir() / "examples" / c.log).string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    std::set<std::string> top_ids;
    for (const auto& block : j["blocks"]) {
      if (!block["matches"].empty()) top_ids.insert(block["matches"][0]["id"].get<std::string>());
    }
    // The first expected record is the root error's.
    ASSERT_FALSE(j["blocks"].empty());
    EXPECT_EQ(j["blocks"][0]["root"], true);
    ASSERT_FALSE(j["blocks"][0]["matches"].empty());
    EXPECT_EQ(j["blocks"][0]["matches"][0]["id"], c.expected[0].first);
    std::set<std::string> expected_ids;
    for (const auto& [id, line] : c.expected) {
      expected_ids.insert(id);
      // Some block spans the error's line and offers the record.
      bool found = false;
      for (const auto& block : j["blocks"]) {
        if (block["lines"][0] > line || block["lines"][1] < line) continue;
        for (const auto& m : block["matches"]) found = found || m["id"] == id;
      }
      EXPECT_TRUE(found) << id << " at line " << line;
    }
    EXPECT_EQ(top_ids, expected_ids);
    // One block per known error: torchrun's exit line, traceback and
    // summary of the failed worker are one report.
    if (std::string(c.log) == "nccl-timeout.log") {
      EXPECT_EQ(j["blocks"].size(), 2u) << r.out;
    }
  }
}

}  // namespace
}  // namespace kedb
