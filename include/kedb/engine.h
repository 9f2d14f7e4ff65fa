// Engine: one loaded knowledge base and its compiled matcher. Immutable once
// built, so one engine answers any number of threads at once; front ends
// share one and swap in a new one on reload.
//
//   auto engine = kedb::Engine::Open("kb", {});
//   if (!engine.ok()) ... engine.status().message() ...
//   kedb::MatchResult r = (*engine)->Match(text, {});
#pragma once

#include <istream>
#include <memory>
#include <string>
#include <string_view>

#include "kedb/knowledge_base.h"
#include "kedb/match.h"
#include "kedb/search.h"
#include "kedb/status.h"

namespace kedb {

struct OpenOptions {
  LoadOptions load = {};
  // Where the compiled pattern database is cached: "" for the default
  // (a .kedb-cache folder beside the knowledge base, else ~/.cache/kedb),
  // "-" for no cache.
  std::string cache_dir;
  // A knowledge base with no record is an error (NoRecordsMessage) unless
  // this is set: a server may start empty and be filled before a reload.
  bool allow_empty = false;
  // Leave the pattern database and the similarity index until the first
  // match, scan or Prepare() needs them: a command that only reads records
  // (show, search, chain) then costs about the same at any size.
  bool defer_indexes = false;
};

class Engine {
 public:
  // Loads the knowledge base at `kb_path` and compiles its patterns.
  static Result<std::shared_ptr<const Engine>> Open(const std::string& kb_path, const OpenOptions& options,
                                                    LoadReport* report = nullptr);
  static Result<std::shared_ptr<const Engine>> FromKnowledgeBase(KnowledgeBase kb, const std::string& cache_dir,
                                                                  bool defer_indexes = false);
  // `base` with records changed since it was loaded laid over it
  // (KnowledgeBase::WithChanges): only the changed records are compiled,
  // in milliseconds at any size, and base's indexes are shared. Patterns
  // stay exact; how the changed records' words are weighed until a full
  // compile is said in src/engine/layered_indexes.h. `base` must have
  // been opened, not made by WithChanges itself.
  static Result<std::shared_ptr<const Engine>> WithChanges(std::shared_ptr<const Engine> base,
                                                            KnowledgeBase::Changes changes);
  // Whether the engine was made by WithChanges.
  bool layered() const;
  ~Engine();

  // Builds what defer_indexes put off, once; returns the status of that
  // build (Ok at once for an engine built at open). Thread-safe.
  Status Prepare() const;
  // Reads or builds the search index now, which Search otherwise does on
  // its first call. Thread-safe.
  void PrepareSearch() const;

  // Every known error in one message (one or more lines). Cost: one pass
  // over the text plus a confirmation per candidate line.
  MatchResult Match(std::string_view text, const MatchOptions& options) const;

  // A whole log read from `in`, decompressed on the fly when it is gzip or
  // zstd (logs/decompress.h): lines are cleaned (logs/preprocess.h), cut
  // into error blocks (logs/blocks.h) and matched in one pass; blocks where
  // no pattern fires get fuzzy candidates from their decisive line. Blocks
  // come root error first (see engine/root_order.h). Memory grows with the
  // number of distinct errors, not with the log (at most 10,000 blocks are
  // kept; repeats are counted). Fails only when reading fails, or when
  // compressed data is corrupt or truncated.
  Status Scan(std::istream& in, const ScanOptions& options, ScanResult* result) const;

  // Records by words, in English or Chinese: BM25 over signatures, aliases,
  // error codes, tags, root causes and the Chinese fields (search/bm25.h).
  // The index is read from the cache folder on the first call, or built
  // there (tens of milliseconds on the 2,522-record corpus) and kept, so
  // commands that never search never pay for it, and others pay once.
  SearchResult Search(std::string_view query, const SearchOptions& options) const;

  // The knowledge base the engine answers from.
  const KnowledgeBase& kb() const;

  // The engine's internals (src/engine/engine_impl.h), for kedb's own
  // tests and benchmarks; an opaque type to every other program.
  class Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit Engine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Parses "torch=2.2,cudnn=8.9,os=linux". Fails on an item without '='.
Result<std::vector<EnvPair>> ParseEnv(std::string_view text);

}  // namespace kedb
