// Engine: one loaded knowledge base and its compiled matcher. Immutable once
// built; front ends share one across threads and swap in a new one on reload.
#pragma once

#include <functional>
#include <istream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kedb/knowledge_base.h"
#include "kedb/match.h"
#include "kedb/search.h"
#include "kedb/status.h"

namespace kedb {

namespace logs {
struct Block;
}  // namespace logs
namespace search {
class Bm25Index;
}  // namespace search
namespace match {
class PatternSet;
class SignatureIndex;
struct Candidate;
struct LineWords;
struct MessageLines;
struct Neighbour;
}

struct OpenOptions {
  LoadOptions load = {};
  // Where the compiled pattern database is cached: "" for the default
  // (a .kedb-cache folder beside the knowledge base, else ~/.cache/kedb),
  // "-" for no cache.
  std::string cache_dir;
  // A knowledge base with no record is an error (NoRecordsMessage) unless
  // this is set: a server may start empty and be filled before a reload.
  bool allow_empty = false;
};

class Engine {
 public:
  // Loads the knowledge base at `kb_path` and compiles its patterns.
  static Result<std::shared_ptr<const Engine>> Open(const std::string& kb_path, const OpenOptions& options,
                                                    LoadReport* report = nullptr);
  static Result<std::shared_ptr<const Engine>> FromKnowledgeBase(KnowledgeBase kb, const std::string& cache_dir);
  ~Engine();

  // Every known error in one message (one or more lines). Cost: one pass
  // over the text plus a confirmation per candidate line.
  MatchResult Match(std::string_view text, const MatchOptions& options) const;

  // A whole log read from `in`: lines are cleaned (logs/preprocess.h), cut
  // into error blocks (logs/blocks.h) and matched in one pass; blocks where
  // no pattern fires get fuzzy candidates from their decisive line. Blocks
  // come root error first (see engine/root_order.h). Memory grows with the
  // number of distinct errors, not with the log (at most 10,000 blocks are
  // kept; repeats are counted). Fails only when reading fails.
  Status Scan(std::istream& in, const ScanOptions& options, ScanResult* result) const;

  // Records by words, in English or Chinese: BM25 over signatures, aliases,
  // error codes, tags, root causes and the Chinese fields (search/bm25.h).
  // The index is read from the cache folder on the first call, or built
  // there (tens of milliseconds on the 2,522-record corpus) and kept, so
  // commands that never search never pay for it, and others pay once.
  SearchResult Search(std::string_view query, const SearchOptions& options) const;

  const KnowledgeBase& kb() const { return kb_; }
  const match::PatternSet& patterns() const { return *patterns_; }
  const match::SignatureIndex& signatures() const { return *signatures_; }

 private:
  Engine() = default;
  const search::Bm25Index& SearchIndex() const;
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
                  std::vector<match::Candidate>* candidates) const;
  KnowledgeBase kb_;
  std::string cache_dir_;  // "" for none
  std::unique_ptr<match::PatternSet> patterns_;
  std::unique_ptr<match::SignatureIndex> signatures_;
  mutable std::once_flag search_once_;
  mutable std::unique_ptr<search::Bm25Index> search_;
};

// Parses "torch=2.2,cudnn=8.9,os=linux". Fails on an item without '='.
Result<std::vector<EnvPair>> ParseEnv(std::string_view text);

}  // namespace kedb
