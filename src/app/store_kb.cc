#include "app/store_kb.h"

#include <fmt/format.h>

#include "store/store.h"

namespace kedb::app {

bool IsStoreKb(const std::string& kb) { return store::IsPostgresSpec(kb) || kb.starts_with("sqlite:"); }

namespace {

// Every record in `records`, loaded as files are.
Result<KnowledgeBase> LoadFromStore(store::RecordStore& records, const LoadOptions& options, LoadReport* report,
                                    int64_t* revision) {
  auto snapshot = records.All();
  if (!snapshot.ok()) return snapshot.status();
  if (revision != nullptr) *revision = snapshot->revision;
  std::vector<KnowledgeBase::Document> documents;
  documents.reserve(snapshot->records.size());
  for (store::StoredRecord& r : snapshot->records) {
    // Diagnostics name the store and the record: "sqlite:/x.sqlite#cuda/y:3:5".
    documents.push_back({fmt::format("{}#{}", records.Name(), r.id), std::move(r.json)});
  }
  return KnowledgeBase::FromDocuments(records.Name(), std::move(documents), options, report);
}

}  // namespace

Result<KnowledgeBase> LoadKnowledge(const std::string& kb, const LoadOptions& options, LoadReport* report,
                                    int64_t* revision) {
  if (!IsStoreKb(kb)) return KnowledgeBase::Load(kb, options, report);
  auto records = store::OpenRecordStore(kb);
  if (!records.ok()) return records.status();
  return LoadFromStore(**records, options, report, revision);
}

Result<std::shared_ptr<const Engine>> OpenEngineAt(const std::string& kb, const OpenOptions& options,
                                                   LoadReport* report, int64_t* revision) {
  if (!IsStoreKb(kb)) return Engine::Open(kb, options, report);
  auto records = store::OpenRecordStore(kb);
  if (!records.ok()) return records.status();
  return OpenEngineFromStore(**records, kb, options, report, revision);
}

Result<std::shared_ptr<const Engine>> OpenEngineFromStore(store::RecordStore& records, const std::string& kb,
                                                          const OpenOptions& options, LoadReport* report,
                                                          int64_t* revision) {
  LoadReport local;
  LoadReport* rep = report ? report : &local;
  auto loaded = LoadFromStore(records, options.load, rep, revision);
  if (!loaded.ok()) return loaded.status();
  if (loaded->size() == 0 && !options.allow_empty) {
    const std::string name = store::RedactUrl(kb);
    return Status::NotFound(rep->documents > 0 ? NoRecordsMessage(name, *rep)
                                               : fmt::format("{}: the store holds no record; `kedb import native "
                                                             "DIR --into {}` puts some there",
                                                             name, name));
  }
  const std::string cache = options.cache_dir == "-" ? "" : options.cache_dir.empty() ? UserCacheDir() : options.cache_dir;
  return Engine::FromKnowledgeBase(std::move(loaded).value(), cache, options.defer_indexes);
}

Result<PutSummary> PutKnowledge(const KnowledgeBase& kb, const std::string& spec, int64_t now) {
  auto records = store::OpenRecordStore(spec);
  if (!records.ok()) return records.status();
  std::vector<store::StoredRecord> batch;
  batch.reserve(kb.size());
  for (const Record& r : kb.records()) batch.push_back({r.id, FormatRecordFile(r), now});
  auto written = (*records)->Put(batch, now);
  if (!written.ok()) return written.status();
  return PutSummary{written->changed, written->unchanged, written->revision, (*records)->Name()};
}

}  // namespace kedb::app
