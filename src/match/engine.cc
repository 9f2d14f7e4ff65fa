#include "kedb/engine.h"


#include <algorithm>
#include <filesystem>
#include <future>
#include <map>

#include <fmt/format.h>

#include "logs/line_chunker.h"
#include "logs/preprocess.h"
#include "match/candidate.h"
#include "match/pattern_set.h"
#include "match/rank.h"
#include "match/similarity.h"
#include "search/bm25.h"
#include "util/binary_io.h"

namespace kedb {

using match::Candidate;

Engine::~Engine() = default;

Result<std::shared_ptr<const Engine>> Engine::Open(const std::string& kb_path, const OpenOptions& options,
                                                   LoadReport* report) {
  std::string cache = options.cache_dir == "-" ? "" : options.cache_dir.empty() ? DefaultCacheDir(kb_path)
                                                                               : options.cache_dir;
  auto kb = KnowledgeBase::LoadCached(kb_path, options.load, cache, report);
  if (!kb.ok()) return kb.status();
  return FromKnowledgeBase(std::move(kb).value(), cache);
}

Result<std::shared_ptr<const Engine>> Engine::FromKnowledgeBase(KnowledgeBase kb, const std::string& cache_dir) {
  std::shared_ptr<Engine> engine(new Engine());
  engine->kb_ = std::move(kb);
  engine->cache_dir_ = cache_dir;
  std::vector<std::string> patterns;
  patterns.reserve(engine->kb_.size());
  for (const Record& r : engine->kb_.records()) patterns.push_back(r.regex);
  // The signature index needs only the records: it is built on the other
  // core while the pattern database loads (or compiles).
  auto signatures = std::async(std::launch::async,
                               [&kb = engine->kb_] { return std::make_unique<match::SignatureIndex>(kb); });
  auto set = match::PatternSet::Build(std::move(patterns), cache_dir);
  engine->signatures_ = signatures.get();
  if (!set.ok()) return set.status();
  engine->patterns_ = std::move(set).value();
  return std::shared_ptr<const Engine>(std::move(engine));
}

// Lines past this many are matched by pattern only: a pasted message is
// short, and fuzzy search per line costs more than the patterns.
constexpr std::size_t kFuzzyLinesPerMessage = 2000;
constexpr std::size_t kSearchLinesPerMessage = 200;

MatchResult Engine::Match(std::string_view raw, const MatchOptions& options) const {
  MatchResult result;
  // Matched as cleaned lines (see logs/preprocess.h); spans are mapped back
  // to the raw text through each line's start and stripped prefix.
  std::vector<std::size_t> raw_starts = logs::LineStarts(raw);
  logs::CleanedLines cleaned;
  logs::CleanLines(raw, raw_starts, &cleaned);
  const std::string_view text = cleaned.text;
  const std::vector<std::size_t>& starts = cleaned.starts;
  const std::vector<std::size_t>& shift = cleaned.origins;
  std::vector<match::LineHit> hits;
  patterns_->Scan(text, starts, &hits);
  std::vector<EnvPair> text_env = match::EnvFromText(text);
  std::vector<bool> regex_hit(kb_.size(), false);
  std::vector<Candidate> candidates;
  std::size_t h = 0;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    std::string_view line = logs::LineText(text, starts, i);
    bool has_hits = h < hits.size() && hits[h].line == i;
    if (!has_hits && i >= kFuzzyLinesPerMessage) continue;
    match::LineWords words = signatures_->Words(line);
    for (; h < hits.size() && hits[h].line == i; ++h) {
      regex_hit[hits[h].pattern] = true;
      candidates.push_back(MakeMatch(*this, hits[h], line, words, shift[i], i + 1, options, text_env));
    }
    if (i < kFuzzyLinesPerMessage) {
      // With no pattern fired anywhere, search widens the net (first lines only).
      for (auto [r, sim] : FuzzyRecords(line, words, options.top, hits.empty() && i < kSearchLinesPerMessage)) {
        if (regex_hit[r]) continue;
        candidates.push_back(MakeFuzzyMatch(*this, r, sim, line, words, shift[i], i + 1, options, text_env));
      }
    }
  }
  // A record hit by a pattern anywhere is not also offered as fuzzy; weak
  // evidence is not offered at all.
  std::erase_if(candidates, [&](const Candidate& c) {
    return !match::StrongEnough(c, options) ||
           (c.match.kind == "fuzzy" && regex_hit[static_cast<std::size_t>(c.match.record - kb_.records().data())]);
  });
  match::KeepBest(&candidates, options.top);
  result.matches = match::Explain(std::move(candidates), options);
  result.abstained = result.matches.empty();
  return result;
}

// BM25 indexes kept per cache folder, as for pattern databases.
constexpr std::size_t kCachedSearchIndexes = 8;

const search::Bm25Index& Engine::SearchIndex() const {
  std::call_once(search_once_, [&]() {
    std::string path;
    if (!cache_dir_.empty()) {
      path = (std::filesystem::path(cache_dir_) /
              fmt::format("bm25-{:016x}.bin", search::Bm25Index::ContentKey(kb_)))
                 .string();
      std::string bytes;
      if (util::ReadWholeFile(path, &bytes)) search_ = search::Bm25Index::Deserialize(kb_, bytes);
      if (search_) return;
    }
    search_ = std::make_unique<search::Bm25Index>(kb_);
    // An unwritable cache only costs time.
    if (!path.empty() && util::WriteFileAtomically(path, search_->Serialize())) {
      util::PruneCacheFiles(cache_dir_, "bm25-", kCachedSearchIndexes);
    }
  });
  return *search_;
}

std::vector<std::pair<std::size_t, double>> Engine::FuzzyRecords(std::string_view line, const match::LineWords& words,
                                                                 std::size_t k, bool with_search) const {
  auto out = signatures_->Nearest(words, k, match::kFuzzyMinSimilarity);
  if (!with_search) return out;
  for (const auto& hit : SearchIndex().Search(line, k)) {
    bool known = std::any_of(out.begin(), out.end(), [&](const auto& o) { return o.first == hit.record; });
    if (known) continue;
    double sim = signatures_->Similarity(words, hit.record);
    if (sim >= match::kFuzzyMinSimilarity) out.emplace_back(hit.record, sim);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (out.size() > k) out.resize(k);
  return out;
}

SearchResult Engine::Search(std::string_view query, const SearchOptions& options) const {
  SearchResult result;
  const std::size_t wanted = options.domain.empty() ? options.top : kb_.size();
  for (auto& h : SearchIndex().Search(query, wanted)) {
    const Record& r = kb_.records()[h.record];
    if (!options.domain.empty() && r.domain != options.domain) continue;
    result.hits.push_back({&r, h.score, std::move(h.terms)});
    if (result.hits.size() >= options.top) break;
  }
  return result;
}

Result<std::vector<EnvPair>> ParseEnv(std::string_view text) {
  std::vector<EnvPair> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    start = comma == std::string_view::npos ? text.size() : comma + 1;
    if (item.empty()) continue;
    std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size()) {
      return Status::InvalidArgument(fmt::format("--env: \"{}\" is not KEY=VALUE", item));
    }
    out.push_back({std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))});
  }
  return out;
}

}  // namespace kedb
