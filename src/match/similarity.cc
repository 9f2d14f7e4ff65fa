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
  std::unordered_map<std::string, std::size_t> df;
  df.reserve(kb.size() * 4);
  signature_tokens_.reserve(kb.size());
  domains_.reserve(kb.size());
  signature_weight_.reserve(kb.size());
  for (const Record& r : kb.records()) {
    std::string text = r.signature;
    for (const auto& a : r.aliases) text += "\n" + a;
    signature_tokens_.push_back(Tokens(text));
    for (const auto& t : signature_tokens_.back()) ++df[t];
    std::string domain = r.domain;
    for (char& c : domain) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    domains_.push_back(std::move(domain));
  }
  double n = static_cast<double>(std::max<std::size_t>(kb.size(), 1));
  idf_.reserve(df.size());
  postings_.reserve(df.size());
  for (const auto& [t, d] : df) idf_[t] = std::log(1 + n / static_cast<double>(d));
  unknown_idf_ = std::log(1 + n);
  const std::size_t max_df = MaxCandidateDf(kb.size());
  for (uint32_t i = 0; i < signature_tokens_.size(); ++i) {
    double w = 0;
    for (const auto& t : signature_tokens_[i]) {
      w += idf_[t];
      if (df[t] <= max_df) postings_[t].push_back(i);
    }
    signature_weight_.push_back(w);
  }
}

double SignatureIndex::Idf(const std::string& token) const {
  auto it = idf_.find(token);
  return it == idf_.end() ? unknown_idf_ : it->second;
}

LineWords SignatureIndex::Words(std::string_view text) const {
  LineWords w;
  w.tokens = Tokens(text);
  w.idf.reserve(w.tokens.size());
  for (const auto& t : w.tokens) {
    w.idf.push_back(Idf(t));
    w.weight += w.idf.back();
  }
  return w;
}

double SignatureIndex::Similarity(const LineWords& words, std::size_t i) const {
  const auto& sig = signature_tokens_[i];
  if (sig.empty() || words.tokens.empty()) return 0;
  // Both lists are sorted: one merge pass.
  double shared = 0;
  auto s = sig.begin();
  for (std::size_t k = 0; k < words.tokens.size() && s != sig.end(); ++k) {
    s = std::lower_bound(s, sig.end(), words.tokens[k]);
    if (s != sig.end() && *s == words.tokens[k]) shared += words.idf[k];
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
  shared.assign(signature_tokens_.size(), 0);
  touched.clear();
  for (std::size_t j = 0; j < words.tokens.size(); ++j) {
    auto it = postings_.find(words.tokens[j]);
    if (it == postings_.end()) continue;
    double idf = words.idf[j];
    for (uint32_t r : it->second) {
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
