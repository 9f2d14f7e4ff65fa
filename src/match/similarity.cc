#include "match/similarity.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>

namespace kedb::match {
namespace {

// ASCII letters and digits, '_' and every byte of a multi-byte character.
// (Not std::isalnum: locale lookups cost more than the rest of a line.)
bool WordByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

// A word in more signatures than this carries little meaning for retrieval;
// it still counts in similarity through its (low) weight, but does not
// propose candidates.
std::size_t MaxCandidateDf(std::size_t records) { return std::max<std::size_t>(50, records / 20); }

}  // namespace

std::vector<std::string> SignatureIndex::Tokens(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !WordByte(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t b = i;
    while (i < text.size() && WordByte(static_cast<unsigned char>(text[i]))) ++i;
    // One-character words are placeholders ('X', 'T') or noise; they say nothing.
    if (i > b + 1 && i - b <= 64) {
      std::string w(text.substr(b, i - b));
      for (char& c : w) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      }
      out.push_back(std::move(w));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

SignatureIndex::SignatureIndex(const KnowledgeBase& kb) {
  const std::size_t n_records = kb.size();
  std::vector<uint32_t> df;
  sig_begin_.reserve(n_records + 1);
  domains_.reserve(n_records);
  signature_weight_.reserve(n_records);
  ids_.reserve(n_records * 4);
  std::vector<uint32_t> ids;
  std::string word;
  auto add_words = [&](std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && !WordByte(static_cast<unsigned char>(text[i]))) ++i;
      std::size_t b = i;
      while (i < text.size() && WordByte(static_cast<unsigned char>(text[i]))) ++i;
      if (i <= b + 1 || i - b > 64) continue;  // as Tokens()
      word.assign(text.substr(b, i - b));
      for (char& c : word) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      }
      auto [it, fresh] = ids_.try_emplace(word, static_cast<uint32_t>(ids_.size()));
      if (fresh) df.push_back(0);
      ids.push_back(it->second);
    }
  };
  for (const Record& r : kb.records()) {
    ids.clear();
    add_words(r.signature);
    for (const auto& a : r.aliases) add_words(a);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    sig_begin_.push_back(static_cast<uint32_t>(sig_ids_.size()));
    sig_ids_.insert(sig_ids_.end(), ids.begin(), ids.end());
    for (uint32_t id : ids) ++df[id];
    std::string domain = r.domain;
    for (char& c : domain) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    domains_.push_back(std::move(domain));
  }
  sig_begin_.push_back(static_cast<uint32_t>(sig_ids_.size()));
  double n = static_cast<double>(std::max<std::size_t>(n_records, 1));
  idf_.resize(df.size());
  for (std::size_t t = 0; t < df.size(); ++t) idf_[t] = std::log(1 + n / static_cast<double>(df[t]));
  unknown_idf_ = std::log(1 + n);
  const std::size_t max_df = MaxCandidateDf(n_records);
  postings_.resize(df.size());
  for (uint32_t i = 0; i < n_records; ++i) {
    double w = 0;
    for (uint32_t k = sig_begin_[i]; k < sig_begin_[i + 1]; ++k) {
      uint32_t t = sig_ids_[k];
      w += idf_[t];
      if (df[t] <= max_df) postings_[t].push_back(i);
    }
    signature_weight_.push_back(w);
  }
}

LineWords SignatureIndex::Words(std::string_view text) const {
  LineWords w;
  w.tokens = Tokens(text);
  for (const auto& t : w.tokens) {
    auto it = ids_.find(std::string_view(t));
    double idf = it == ids_.end() ? unknown_idf_ : idf_[it->second];
    if (it != ids_.end()) w.known.emplace_back(it->second, idf);
    w.weight += idf;
  }
  std::sort(w.known.begin(), w.known.end());
  return w;
}

double SignatureIndex::Similarity(const LineWords& words, std::size_t i) const {
  const uint32_t* s = sig_ids_.data() + sig_begin_[i];
  const uint32_t* end = sig_ids_.data() + sig_begin_[i + 1];
  if (s == end || words.tokens.empty()) return 0;
  // Both lists are sorted ids: one merge pass.
  double shared = 0;
  for (const auto& [id, idf] : words.known) {
    s = std::lower_bound(s, end, id);
    if (s == end) break;
    if (*s == id) shared += idf;
  }
  if (shared <= 0) return 0;
  double recall = shared / signature_weight_[i];
  double precision = shared / words.weight;
  return 2 * precision * recall / (precision + recall);
}

bool SignatureIndex::MentionsDomain(const LineWords& words, std::size_t i) const {
  return std::binary_search(words.tokens.begin(), words.tokens.end(), domains_[i]);
}

std::vector<std::pair<std::size_t, double>> SignatureIndex::Nearest(const LineWords& words, std::size_t k,
                                                                     double min_similarity) const {
  // Shared weight through the postings of the rarer words; common words are
  // not posted, so this underestimates the overlap, and the best few by
  // this estimate are then scored exactly.
  const double line_weight = words.weight;
  thread_local std::vector<double> shared;
  thread_local std::vector<uint32_t> touched;
  shared.assign(signature_weight_.size(), 0);
  touched.clear();
  for (const auto& [id, idf] : words.known) {
    for (uint32_t r : postings_[id]) {
      if (shared[r] == 0) touched.push_back(r);
      shared[r] += idf;
    }
  }
  std::vector<std::pair<std::size_t, double>> estimate;
  for (uint32_t r : touched) {
    double recall = shared[r] / signature_weight_[r], precision = shared[r] / line_weight;
    double f1 = 2 * precision * recall / (precision + recall);
    if (f1 >= 0.5 * min_similarity) estimate.emplace_back(r, f1);
  }
  constexpr std::size_t kExact = 64;
  if (estimate.size() > kExact) {
    std::partial_sort(estimate.begin(), estimate.begin() + kExact, estimate.end(),
                      [](const auto& a, const auto& b) { return a.second > b.second; });
    estimate.resize(kExact);
  }
  std::vector<std::pair<std::size_t, double>> out;
  for (const auto& [r, _] : estimate) {
    double s = Similarity(words, r);
    if (s >= min_similarity) out.emplace_back(r, s);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (out.size() > k) out.resize(k);
  return out;
}

}  // namespace kedb::match
