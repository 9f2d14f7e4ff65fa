// SignatureIndex: how much a line of text looks like a record's signature.
//
// Words are weighted by rarity across the knowledge base's signatures (IDF),
// so that "CUDNN_STATUS_BAD_PARAM" counts for much more than "error". The
// similarity of a line and a signature is the F1 of the weighted word
// overlap: 1 for the signature itself, 0 when no word is shared. It ranks
// regex hits (a hit on a line that reads like the record's signature is
// stronger evidence) and proposes "fuzzy" candidates when no pattern fires.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kedb/knowledge_base.h"

namespace kedb::match {

class SignatureIndex {
 public:
  explicit SignatureIndex(const KnowledgeBase& kb);

  // Lower-cased words and identifiers of `text`, sorted, each once.
  // Identifiers stay whole (CUDNN_STATUS_BAD_PARAM, E0502, TS2307).
  static std::vector<std::string> Tokens(std::string_view text);

  // Weighted-overlap F1 of `tokens` (from Tokens) and record `i`'s
  // signature, in [0,1].
  double Similarity(const std::vector<std::string>& tokens, std::size_t i) const;

  // Whether `tokens` name record `i`'s domain ("cuda", "docker", ...).
  bool MentionsDomain(const std::vector<std::string>& tokens, std::size_t i) const;

  // Up to `k` records with similarity >= `min_similarity`, best first.
  std::vector<std::pair<std::size_t, double>> Nearest(const std::vector<std::string>& tokens, std::size_t k,
                                                      double min_similarity) const;

 private:
  double Idf(const std::string& token) const;

  std::vector<std::vector<std::string>> signature_tokens_;  // per record, sorted
  std::vector<double> signature_weight_;                    // sum of idf per record
  std::vector<std::string> domains_;                        // per record, lower case
  std::unordered_map<std::string, double> idf_;
  std::unordered_map<std::string, std::vector<uint32_t>> postings_;
  double unknown_idf_ = 1;  // idf of a word no signature has
};

}  // namespace kedb::match
