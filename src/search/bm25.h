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
#include "util/section_file.h"

namespace kedb::search {

struct Hit {
  std::size_t record = 0;           // index into kb.records()
  double score = 0;
  std::vector<std::string> terms;   // query words that matched, sorted
};

class Bm25Index {
 public:
  explicit Bm25Index(const KnowledgeBase& kb);
  // An index of a few records laid over `weighed_like` (the records
  // changed since it was built): scores weigh terms by their rarity, and
  // lengths against the average, across both, so that its hits and the
  // other's can be ranked together. `weighed_like` must outlive it.
  Bm25Index(const KnowledgeBase& kb, const Bm25Index& weighed_like);

  // Up to `top` records, best first; ties by id. `keep`, when given,
  // leaves out the records (indexes into kb.records()) it says no to.
  std::vector<Hit> Search(std::string_view query, std::size_t top,
                          const std::function<bool(std::size_t)>& keep = {}) const;

  std::size_t terms() const { return term_ends_.size(); }

  // The index of `kb` from the cache folder `cache_dir` when a file there
  // was written for the same records by the same word rules; otherwise
  // built, and written there for the next start ("" for no cache). The
  // file is used in place (util/section_file.h): opening it reads its
  // tables, and a search reads only the terms and postings it touches,
  // where building tokenizes every record.
  static std::unique_ptr<Bm25Index> Open(const KnowledgeBase& kb, const std::string& cache_dir);

  // The index as the bytes of its cache file, and back. Deserialize
  // returns null for bytes that are not an index of kb (truncated,
  // damaged, another format or knowledge base): then build it again.
  std::string Serialize() const { return std::string(file_->bytes()); }
  static std::unique_ptr<Bm25Index> Deserialize(const KnowledgeBase& kb, std::string_view bytes);
  // A hash of the format and of every field the index reads, for naming
  // its cache file: an edited record gives another key.
  static uint64_t ContentKey(const KnowledgeBase& kb);

 private:
  explicit Bm25Index(const KnowledgeBase* kb) : kb_(kb) {}
  // The file's bytes for `kb`, built by tokenizing every record.
  static std::string BuildFile(const KnowledgeBase& kb, uint64_t key);
  // Binds the tables to `file`; false when they do not fit together.
  bool Bind(std::unique_ptr<util::SectionFile> file);
  // Term i, and the position of `term` among the sorted terms (terms()
  // when absent); the first term not less than `term`.
  std::string_view Term(std::size_t i) const;
  std::size_t Find(std::string_view term) const;
  std::size_t LowerBound(std::string_view term) const;

  const KnowledgeBase* kb_;
  std::unique_ptr<util::SectionFile> file_;
  // Every term, sorted (binary search, and prefix look-ups), back to back
  // in term_chars_, term i ending at term_ends_[i]; its postings are
  // docs_/tfs_[offsets_[i] .. offsets_[i+1]), by record.
  util::Array<char> term_chars_;
  util::Array<uint32_t> term_ends_;
  util::Array<uint32_t> offsets_;
  util::Array<uint32_t> docs_;
  util::Array<float> tfs_;          // weighted term counts
  util::Array<float> doc_length_;   // weighted lengths
  double average_length_ = 1;
  const Bm25Index* weighed_like_ = nullptr;
};

}  // namespace kedb::search
