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

// A line's words with their weights, computed once per line and shared by
// every record the line is compared with.
struct LineWords {
  std::vector<std::string> tokens;  // as SignatureIndex::Tokens
  double weight = 0;                // sum of the tokens' idf
  // The tokens some signature has, as the index's ids, ascending, with
  // their idf: what similarity is computed from.
  std::vector<std::pair<uint32_t, double>> known;
};

class SignatureIndex {
 public:
  explicit SignatureIndex(const KnowledgeBase& kb);

  // Lower-cased words and identifiers of `text`, sorted, each once.
  // Identifiers stay whole (CUDNN_STATUS_BAD_PARAM, E0502, TS2307).
  static std::vector<std::string> Tokens(std::string_view text);

  // The words of `text` with this index's weights.
  LineWords Words(std::string_view text) const;

  // Weighted-overlap F1 of the line's words and record `i`'s signature, in
  // [0,1].
  double Similarity(const LineWords& words, std::size_t i) const;

  // Whether the line names record `i`'s domain ("cuda", "docker", ...).
  bool MentionsDomain(const LineWords& words, std::size_t i) const;

  // Up to `k` records with similarity >= `min_similarity`, best first.
  std::vector<std::pair<std::size_t, double>> Nearest(const LineWords& words, std::size_t k,
                                                      double min_similarity) const;

 private:
  // Tokens are interned: every word of every signature gets an id, and a
  // signature is its sorted ids. Building and comparing then costs integer
  // work instead of a string per word (this index is built at every start).
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> ids_;
  std::vector<double> idf_;                   // by token id
  std::vector<uint32_t> sig_ids_;             // every record's ids, record after record
  std::vector<uint32_t> sig_begin_;           // record i's ids: [sig_begin_[i], sig_begin_[i + 1])
  std::vector<double> signature_weight_;      // sum of idf per record
  std::vector<std::string> domains_;          // per record, lower case
  std::vector<std::vector<uint32_t>> postings_;  // by token id; empty for common words
  double unknown_idf_ = 1;  // idf of a word no signature has
};

}  // namespace kedb::match
