#include "search/bm25.h"

#include <algorithm>
#include <cmath>

#include "search/tokenizer.h"

namespace kedb::search {
namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
constexpr std::size_t kMinPrefix = 4;
constexpr double kPrefixWeight = 0.5;
constexpr std::size_t kMaxPrefixTerms = 64;

}  // namespace

Bm25Index::Bm25Index(const KnowledgeBase& kb) : kb_(&kb) {
  const auto& records = kb.records();
  doc_length_.resize(records.size());
  postings_.reserve(records.size() * 8);
  double total = 0;
  // Per document: its weighted words, sorted and summed, then posted once.
  std::vector<std::pair<std::string, float>> words;
  for (uint32_t d = 0; d < records.size(); ++d) {
    const Record& r = records[d];
    words.clear();
    auto add = [&](std::string_view text, float weight) {
      for (auto& t : Tokenize(text)) words.emplace_back(std::move(t), weight);
    };
    add(r.signature, 3);
    for (const auto& a : r.aliases) add(a, 3);
    add(r.error_code, 3);
    add(r.signature_zh, 2);
    for (const auto& t : r.tags) add(t, 2);
    add(r.root_cause, 1);
    add(r.root_cause_zh, 1);
    for (const auto& w : r.workarounds_zh) add(w, 1);
    std::sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    float length = 0;
    for (std::size_t i = 0; i < words.size();) {
      std::size_t j = i;
      float tf = 0;
      for (; j < words.size() && words[j].first == words[i].first; ++j) tf += words[j].second;
      length += tf;
      postings_[std::move(words[i].first)].push_back({d, tf});
      i = j;
    }
    doc_length_[d] = length;
    total += length;
  }
  average_length_ = records.empty() ? 1 : std::max(1.0, total / static_cast<double>(records.size()));
  sorted_terms_.reserve(postings_.size());
  for (const auto& [term, _] : postings_) sorted_terms_.push_back(term);
  std::sort(sorted_terms_.begin(), sorted_terms_.end());
}

std::vector<Hit> Bm25Index::Search(std::string_view query, std::size_t top) const {
  const double n = static_cast<double>(doc_length_.size());
  std::vector<std::string> words = Tokenize(query);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  std::unordered_map<uint32_t, Hit> hits;
  auto score_term = [&](const std::string& term, const std::string& query_word, double weight) {
    auto it = postings_.find(term);
    if (it == postings_.end()) return;
    const auto& list = it->second;
    double idf = std::log(1 + (n - static_cast<double>(list.size()) + 0.5) / (static_cast<double>(list.size()) + 0.5));
    for (const Posting& p : list) {
      double norm = kK1 * (1 - kB + kB * doc_length_[p.doc] / average_length_);
      double s = weight * idf * (p.tf * (kK1 + 1)) / (p.tf + norm);
      Hit& h = hits[p.doc];
      h.record = p.doc;
      h.score += s;
      if (std::find(h.terms.begin(), h.terms.end(), query_word) == h.terms.end()) h.terms.push_back(query_word);
    }
  };
  for (const auto& w : words) {
    if (postings_.count(w)) {
      score_term(w, w, 1);
      continue;
    }
    if (w.size() < kMinPrefix || static_cast<unsigned char>(w[0]) >= 0x80) continue;
    // Not a word of any record: try the words it begins.
    auto it = std::lower_bound(sorted_terms_.begin(), sorted_terms_.end(), w);
    for (std::size_t k = 0; it != sorted_terms_.end() && it->compare(0, w.size(), w) == 0 && k < kMaxPrefixTerms;
         ++it, ++k) {
      score_term(*it, w, kPrefixWeight);
    }
  }
  std::vector<Hit> out;
  out.reserve(hits.size());
  for (auto& [_, h] : hits) out.push_back(std::move(h));
  const auto& records = kb_->records();
  std::sort(out.begin(), out.end(), [&](const Hit& a, const Hit& b) {
    return a.score != b.score ? a.score > b.score : records[a.record].id < records[b.record].id;
  });
  if (out.size() > top) out.resize(top);
  return out;
}

}  // namespace kedb::search
