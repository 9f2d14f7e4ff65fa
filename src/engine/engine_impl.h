// Engine::Impl: what an Engine holds (a knowledge base and the indexes
// compiled from it) and the steps of matching that need them. Internal to
// the engine layer, and open to kedb's own tests and benchmarks through
// Engine::impl(); programs embedding kedb use include/kedb/engine.h only.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/layered_indexes.h"
#include "kedb/engine.h"
#include "match/fix_quote.h"
#include "match/pattern_set.h"
#include "match/similarity.h"

namespace kedb {

namespace logs {
struct Block;
}  // namespace logs
namespace search {
class Bm25Index;
}  // namespace search
namespace match {
struct Candidate;
struct MessageLines;
}  // namespace match

class Engine::Impl {
 public:
  Impl(KnowledgeBase kb, std::string cache_dir);
  // Engine::WithChanges: `base` (a compiled, unlayered engine) with
  // `changes` laid over its knowledge base and indexes.
  Impl(std::shared_ptr<const Engine> base, KnowledgeBase::Changes changes);
  ~Impl();

  // Compiles (or reads from the cache folder) the pattern database and the
  // signature index, on both cores, once; later calls return the first
  // call's status. Called at open, or on entry to Match and Scan when the
  // engine was opened with defer_indexes (the steps below them use the
  // indexes without asking again). A build that fails leaves empty indexes
  // behind (nothing matches), and says why here.
  Status Build() const;
  // Opens the search index now (Engine::PrepareSearch).
  void PrepareSearch() const { SearchIndex(); }

  const KnowledgeBase& kb() const { return *kb_; }
  // Valid once Build() has run.
  const LayeredPatterns& patterns() const { return pattern_layers_; }
  const LayeredSignatures& signatures() const { return signature_layers_; }
  // Whether a text quotes a record's fix, each record's fragments read once.
  const match::FixQuotes& fix_quotes() const { return fix_quotes_; }
  // Whether the engine is layered over a base (Engine::WithChanges).
  bool layered() const { return base_ != nullptr; }

  MatchResult Match(std::string_view text, const MatchOptions& options) const;
  Status Scan(std::istream& in, const ScanOptions& options, ScanResult* result) const;  // scan.cc
  SearchResult Search(std::string_view query, const SearchOptions& options) const;

  // Records a line reads like (resemblance at least kFuzzyMinSimilarity),
  // best first: from the signature index, and with `with_search` also from
  // BM25 search over every field, which widens the net when no pattern
  // fired.
  std::vector<match::Neighbour> FuzzyRecords(std::string_view line, const match::LineWords& words, std::size_t k,
                                             bool with_search) const;
  // Every candidate record of one message (a pasted text, or an error
  // block of a log), each scored in the context of the whole message: what
  // Match reports, before the best are kept.
  std::vector<match::Candidate> MessageCandidates(const match::MessageLines& message,
                                                  const MatchOptions& options) const;
  // Scan: the candidates of one block of a log, scored in its context.
  // `found` is the segmenter's block (null for hits outside any block);
  // `candidates` holds the hits placed in the block and receives the
  // block's candidates.
  void ScoreBlock(const ErrorBlock& block, const logs::Block* found,
                  const std::vector<std::pair<std::size_t, std::string>>& hit_texts, const MatchOptions& options,
                  std::vector<match::Candidate>* candidates) const;  // scan.cc
  // Scan, stage 4b: each of the first `max_blocks` blocks the segmenter
  // found (`found`, same index as in `blocks`) that no record explains,
  // read with the lines around it; its matches go into `blocks`
  // (scan_around.cc).
  void ReadBlocksAround(const std::vector<logs::Block>& found, std::size_t max_blocks, const MatchOptions& options,
                        std::vector<ErrorBlock>* blocks) const;
  // Scan: the candidates of a block no record explained, read again with
  // the lines around it (logs::Block::lead and trail), except those for
  // which `explained` is true: lines of blocks with known errors of their
  // own.
  std::vector<match::Candidate> ReadAround(const logs::Block& found, const std::function<bool(std::size_t)>& explained,
                                           const MatchOptions& options) const;  // scan_around.cc

 private:
  // The engine's own BM25 index (a layered engine's base's), read from
  // the cache folder on the first call, or built there and kept.
  const search::Bm25Index& SearchIndex() const;
  // Search over it, and over the changed records' index when layered.
  std::vector<search::Hit> SearchRecords(std::string_view query, std::size_t top,
                                         const std::function<bool(std::size_t)>& keep = {}) const;
  // Build() for an unlayered engine, and for a layered one.
  void BuildOwn() const;
  void BuildLayered() const;

  std::shared_ptr<const KnowledgeBase> kb_;
  std::string cache_dir_;  // "" for none
  mutable std::once_flag build_once_;
  mutable Status build_status_;
  // An unlayered engine's own indexes.
  mutable std::unique_ptr<match::PatternSet> patterns_;
  mutable std::unique_ptr<match::SignatureIndex> signatures_;
  mutable std::once_flag search_once_;
  mutable std::unique_ptr<search::Bm25Index> search_;
  // A layered engine's base (whose indexes it answers from) and changes.
  std::shared_ptr<const Engine> base_;
  mutable std::unique_ptr<ChangedRecords> changed_;
  // What the steps call: the own indexes, or base's with the changes over.
  mutable LayeredPatterns pattern_layers_;
  mutable LayeredSignatures signature_layers_;
  match::FixQuotes fix_quotes_;
};

}  // namespace kedb
