// The indexes an engine answers from, as the engine's steps call them: its
// own pattern set and signature index, or, for an engine made by
// Engine::WithChanges, a base engine's with the indexes of the records
// changed since laid over them.
//
// Why: at a million records, compiling the pattern shards and the signature
// index takes about a minute, and a one-record edit moves a pattern between
// two shards of 125,000. Laid over the base, the changed records compile
// alone, in milliseconds; the base's indexes are shared, not copied.
//
// What stays exact and what does not, while an engine is layered:
//   - patterns are exact: a replaced record's old regex never fires, its new
//     one does, and hits come in the base set's order (by line, then
//     record);
//   - the changed records' words are weighed by their rarity across base's
//     records and theirs (match::SignatureIndex and search::Bm25Index
//     "weighed like" base), and a text word is split between base's
//     domains and theirs as one index of both would split it (by each
//     index's per-word totals of domain shares). Base's own weights are
//     left as they were, so a word a changed record brings in, or drops,
//     does not yet move how base's records are weighed. On the corpus and
//     the bundled knowledge base, with regexes edited and records added,
//     the first answer is the one a full compile gives, its confidence
//     within 0.05 (tests/kb_changes_test.cc). With edited records in three
//     domains sharing words, some of which base's records already had, a
//     text's domain factor is within 0.02 of a full compile's and its
//     confidence within 0.03. What is left approximate: a replaced
//     record's old version still counts in base's domain shares and word
//     rarities until the next full compile.
// A server compiles the whole knowledge base again behind a layered engine
// and swaps it in when done (serve/engine_slot.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kedb/knowledge_base.h"
#include "match/pattern_set.h"
#include "match/similarity.h"
#include "search/bm25.h"

namespace kedb {

// Records changed since a base engine was compiled, and indexes compiled
// from them alone. A changed record's "slot" is its place among them.
class ChangedRecords {
 public:
  // The changed records of `changes`, at their positions in the knowledge
  // base they are laid over (`base_size` records before the added ones).
  ChangedRecords(const KnowledgeBase::Changes& changes, std::size_t base_size);

  // Compiles the changed records' pattern set, and their signature index
  // weighed like `base_signatures` (which must outlive this).
  Status Build(const match::SignatureIndex& base_signatures);

  // The slot of the record at `position`, if it changed.
  std::optional<uint32_t> SlotOf(std::size_t position) const {
    auto it = slot_of_.find(position);
    if (it == slot_of_.end()) return std::nullopt;
    return it->second;
  }
  std::size_t PositionOf(uint32_t slot) const { return positions_[slot]; }
  std::size_t size() const { return positions_.size(); }

  const KnowledgeBase& kb() const { return kb_; }
  const match::PatternSet& patterns() const { return *patterns_; }
  const match::SignatureIndex& signatures() const { return *signatures_; }
  // The changed records' BM25 index, weighed like `base` (which must
  // outlive this), built on first use.
  const search::Bm25Index& search(const search::Bm25Index& base) const;

 private:
  KnowledgeBase kb_;  // the changed records alone, by slot
  std::vector<std::size_t> positions_;
  std::unordered_map<std::size_t, uint32_t> slot_of_;
  std::unique_ptr<match::PatternSet> patterns_;
  std::unique_ptr<match::SignatureIndex> signatures_;
  mutable std::once_flag search_once_;
  mutable std::unique_ptr<search::Bm25Index> search_;
};

// match::PatternSet's calls, answered by a base set and the changed
// records' set over it (numbers are positions in the engine's knowledge
// base either way).
class LayeredPatterns {
 public:
  LayeredPatterns() = default;
  LayeredPatterns(const match::PatternSet* base, const ChangedRecords* changed) : base_(base), changed_(changed) {}

  void Scan(std::string_view text, const std::vector<std::size_t>& line_starts, std::vector<match::LineHit>* hits,
            const std::vector<uint8_t>* broad_lines = nullptr) const;
  std::size_t CaptureCount(uint32_t p) const;
  std::optional<std::vector<std::optional<regex::Span>>> Captures(uint32_t p, std::string_view line) const;
  std::vector<std::string> GroupNames(uint32_t p) const;
  std::size_t MatchedLiteralChars(uint32_t p, std::string_view line, regex::Span span) const;
  bool has_broad() const;
  // The base set's (the changed records' set is not counted).
  const match::PatternSetStats& stats() const { return base_->stats(); }

 private:
  // The set that holds pattern `p`, and its number there.
  std::pair<const match::PatternSet*, uint32_t> Owner(uint32_t p) const;

  const match::PatternSet* base_ = nullptr;
  const ChangedRecords* changed_ = nullptr;
};

// match::SignatureIndex's calls, likewise. The words of a text carry its
// words against the changed records' index as well (LineWords::changed).
class LayeredSignatures {
 public:
  LayeredSignatures() = default;
  LayeredSignatures(const match::SignatureIndex* base, const ChangedRecords* changed);

  match::LineWords Words(std::string_view text) const;
  match::WordMeasures Measure(const match::LineWords& words, std::size_t i) const;
  double Recall(const match::LineWords& words, std::size_t i) const;
  bool CodesAgree(const match::LineWords& words, std::size_t i) const;
  bool NumberedCodesAgree(const match::LineWords& words, std::size_t i) const;
  bool CodesConflict(const match::LineWords& words, std::size_t i) const;
  bool ReadsLikeCounterexample(const match::LineWords& words, std::size_t i, double resemblance) const;
  bool SharesFamily(const match::LineWords& words, std::size_t i) const;
  std::vector<match::Neighbour> Nearest(const match::LineWords& words, std::size_t k, double min_similarity) const;
  std::vector<match::Neighbour> FamilyNeighbours(const match::LineWords& words, std::size_t k) const;
  // How much the words point at each domain (DomainCues): base's, then
  // those only changed records have. Words only changed records have
  // count for their domains, as in one index of all the records.
  std::vector<double> Affinity(const match::LineWords& words) const;
  // Record i's domain, as an index into Affinity().
  std::size_t DomainOf(std::size_t i) const;

 private:
  // Up to k neighbours `query` finds in base's index and the changed
  // records', replaced records' old versions left out, the most
  // resembling first.
  using NeighbourQuery =
      std::function<std::vector<match::Neighbour>(const match::SignatureIndex&, const match::LineWords&, std::size_t)>;
  std::vector<match::Neighbour> Merged(const match::LineWords& words, std::size_t k, const NeighbourQuery& query) const;

  const match::SignatureIndex* base_ = nullptr;
  const ChangedRecords* changed_ = nullptr;
  // The changed records' index's domains as Affinity's numbering.
  std::vector<std::size_t> domain_of_changed_;
  std::size_t domains_ = 0;  // Affinity's length
};

// Bm25Index::Search over base's index and the changed records' (`changed`
// may be null), positions of `kb` either way: best first, ties by id.
std::vector<search::Hit> SearchLayered(const search::Bm25Index& base, const ChangedRecords* changed,
                                       const KnowledgeBase& kb, std::string_view query, std::size_t top,
                                       const std::function<bool(std::size_t)>& keep = {});

}  // namespace kedb
