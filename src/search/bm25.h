// A BM25 index over the knowledge base, for questions in words rather than
// error messages: "batch norm epsilon zero", "批量归一化 epsilon".
//
// Each record is one document made of its fields, weighted by how much
// they say about the error's identity: signature, aliases and error_code
// count 3 (the zh signature 2), tags 2, root cause (en and zh) and the
// Chinese workarounds 1. Scores are Okapi BM25 (k1 1.2, b 0.75) over
// those weighted term counts.
//
// A query word of 4 or more letters that no document holds also matches
// the words it begins ("norm" -> "normalization") at half weight, since
// people abbreviate what records spell out.
//
// Build: one pass over the records, O(total text). Search: O(postings of
// the query's words). Immutable once built; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kedb/knowledge_base.h"

namespace kedb::search {

struct Hit {
  std::size_t record = 0;           // index into kb.records()
  double score = 0;
  std::vector<std::string> terms;   // query words that matched, sorted
};

class Bm25Index {
 public:
  explicit Bm25Index(const KnowledgeBase& kb);

  // Up to `top` records, best first; ties by id.
  std::vector<Hit> Search(std::string_view query, std::size_t top) const;

  std::size_t terms() const { return postings_.size(); }

 private:
  struct Posting {
    uint32_t doc;
    float tf;  // weighted term count
  };
  const KnowledgeBase* kb_;
  std::unordered_map<std::string, std::vector<Posting>> postings_;
  std::vector<std::string> sorted_terms_;  // for prefix lookups
  std::vector<float> doc_length_;          // weighted length
  double average_length_ = 1;
};

}  // namespace kedb::search
