// Knowledge bases kept in a store (store/record_store.h) rather than in
// files: any command's --kb may name one, as a postgresql:// URL or as
// sqlite:PATH, and `kedb import ... --into STORE` fills one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "kedb/engine.h"
#include "kedb/knowledge_base.h"
#include "store/record_store.h"

namespace kedb::app {

// Whether `kb` names a store rather than a path.
bool IsStoreKb(const std::string& kb);

// The knowledge base at `kb`, a path or a store, loaded as
// KnowledgeBase::Load does (every record checked, broken ones reported
// and left out, or in strict mode refusing the whole). For a store,
// `revision` (optional) receives the revision the records are as of.
Result<KnowledgeBase> LoadKnowledge(const std::string& kb, const LoadOptions& options, LoadReport* report,
                                    int64_t* revision = nullptr);

// The engine for `kb`, a path (Engine::Open) or a store. A store's
// compiled patterns are cached in the user's cache folder.
Result<std::shared_ptr<const Engine>> OpenEngineAt(const std::string& kb, const OpenOptions& options,
                                                   LoadReport* report, int64_t* revision = nullptr);

// OpenEngineAt for a store already open (a server reloading on every
// change keeps one, rather than connecting and checking the schema again);
// `kb` names it in messages.
Result<std::shared_ptr<const Engine>> OpenEngineFromStore(store::RecordStore& records, const std::string& kb,
                                                          const OpenOptions& options, LoadReport* report,
                                                          int64_t* revision = nullptr);

// Writes every record of `kb` into the store `spec` in one transaction,
// as the files `kedb import --out` would hold. Returns what changed.
struct PutSummary {
  std::size_t changed = 0, unchanged = 0;
  int64_t revision = 0;
  std::string store;  // the store's name for messages
};
Result<PutSummary> PutKnowledge(const KnowledgeBase& kb, const std::string& spec, int64_t now);

}  // namespace kedb::app
