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
// Build: one pass over the records, O(total text). Immutable once built;
// thread-safe.
//
// Search cost is bounded whatever the size of the index. The query's words
// are taken rarest first, and scored over all their postings while the
// total stays within a budget of 8,192 postings (on a knowledge base of a
// few thousand records, nearly every word of every query). Words common
// enough to break the budget ("failed", "error" in a million records) only
// add their weight to the best records the rarer words found (at least 64,
// or 4 times `top`), by binary search in their postings. A query made only
// of such words is answered from the first 8,192 postings of its rarest
// one that `keep` accepts. So: O(8,192 + 64 x common words x
// log(postings)) at most without `keep`; a `keep` that turns most records
// away may visit all of one word's postings.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
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

  // Up to `top` records, best first; ties by id. `keep`, when given,
  // leaves out the records (indexes into kb.records()) it says no to.
  std::vector<Hit> Search(std::string_view query, std::size_t top,
                          const std::function<bool(std::size_t)>& keep = {}) const;

  std::size_t terms() const { return terms_.size(); }

  // The index as bytes for a cache file, and back. Deserialize returns null
  // for bytes that are not an index of a knowledge base of kb's size
  // (truncated, damaged, another format): then build it again. Reading is
  // a few copies, where building tokenizes every record (tens of ms on the
  // corpus), which a `kedb scan` of a short log would pay on every call.
  std::string Serialize() const;
  static std::unique_ptr<Bm25Index> Deserialize(const KnowledgeBase& kb, std::string_view bytes);
  // A hash of the format and of every field the index reads, for naming
  // its cache file: an edited record gives another key.
  static uint64_t ContentKey(const KnowledgeBase& kb);

 private:
  explicit Bm25Index(const KnowledgeBase* kb) : kb_(kb) {}
  // Position of `term` in terms_, or terms_.size().
  std::size_t Find(std::string_view term) const;

  const KnowledgeBase* kb_;
  // Every term, sorted (binary search, and prefix lookups); term i's
  // postings are docs_/tfs_[offsets_[i] .. offsets_[i+1]).
  std::vector<std::string> terms_;
  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> docs_;
  std::vector<float> tfs_;          // weighted term counts
  std::vector<float> doc_length_;   // weighted lengths
  double average_length_ = 1;
};

}  // namespace kedb::search
