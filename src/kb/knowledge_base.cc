#include "kedb/knowledge_base.h"

#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <fstream>
#include <functional>
#include <mutex>

#include <fmt/format.h>

#include "kb/deadends_import.h"
#include "kb/kb_source.h"
#include "kb/locate.h"
#include "kb/kb_overlay.h"
#include "kb/mapped_records.h"
#include "kb/read_record.h"
#include "kb/record_codec.h"
#include "kb/snapshot.h"
#include "record/json_text.h"
#include "record/record_parse.h"

namespace kedb {
namespace fs = std::filesystem;

std::size_t LoadReport::errors() const {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                [](const Diagnostic& d) { return d.severity == Severity::kError; }));
}
std::size_t LoadReport::warnings() const { return diagnostics.size() - errors(); }

namespace {

// XXH3 of every record's encoding, in order, and of their number.
uint64_t RecordsContentKey(const std::vector<Record>& records) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  const uint64_t header[] = {kRecordCodecVersion, records.size()};
  XXH3_64bits_update(st, header, sizeof header);
  util::BinaryWriter w;
  for (const Record& r : records) {
    w.str().clear();
    EncodeRecord(r, &w);
    XXH3_64bits_update(st, w.str().data(), w.str().size());
  }
  const uint64_t key = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return key;
}

}  // namespace

std::optional<Record> ReadRecord(SourceDocument& doc, const LoadOptions& options, LoadReport* report) {
  const uint64_t text_hash = XXH3_64bits(doc.text.data(), doc.text.size());
  Json json;
  JsonLimits limits{options.max_depth, options.max_string_bytes};
  if (Status err = ParseJson(doc.text, limits, &json); !err.ok()) {
    LineColumn lc = OffsetToLineColumn(doc.text, err.offset());
    Diagnostic d;
    d.severity = Severity::kError;
    d.rule = "json-syntax";
    d.file = doc.origin.file;
    d.line = doc.origin.line + lc.line - 1;
    d.column = lc.column;
    d.field = err.field();
    d.message = err.message();
    report->diagnostics.push_back(std::move(d));
    return std::nullopt;
  }
  if (!json.is_object()) {
    report->diagnostics.push_back(DiagnosticInText(doc.origin, doc.text, {}, Severity::kError, "schema", "",
                                                   "expected a record object at the top level"));
    return std::nullopt;
  }
  if (IsDeadendsCanon(json)) {
    doc.origin.format = Origin::Format::kDeadends;
    json = ConvertDeadendsCanon(std::move(json));
  }
  Record rec;
  std::vector<FieldIssue> issues;
  bool ok = RecordFromJson(json, &rec, &issues);
  for (auto& issue : issues) {
    report->diagnostics.push_back(DiagnosticInText(doc.origin, doc.text, issue.path, issue.severity,
                                                   std::move(issue.rule), rec.id, std::move(issue.message)));
  }
  if (!ok) return std::nullopt;
  // A native file's own text is its JSON; a converted one is written anew.
  rec.json = doc.origin.format == Origin::Format::kDeadends ? json.dump(-1, ' ', /*ensure_ascii=*/false)
                                                            : std::move(doc.text);
  rec.origin = doc.origin;
  rec.origin.text_hash = text_hash;
  return rec;
}

namespace {

// A document read into a record, with what the reading found to say.
struct ReadDocument {
  std::optional<Record> record;
  LoadReport found;
};

ReadDocument Read(SourceDocument& doc, const LoadOptions& options) {
  ReadDocument read;
  if (!doc.read_error) read.record = ReadRecord(doc, options, &read.found);
  return read;
}

// Counts `doc` in `rep` and passes its record (`read`) to `add` (which
// says whether it was taken) when it has one.
void AddDocument(SourceDocument&& doc, ReadDocument&& read, LoadReport* rep,
                 const std::function<bool(Record, LoadReport*)>& add) {
  if (doc.read_error && doc.read_error->severity != Severity::kError) {
    rep->diagnostics.push_back(std::move(*doc.read_error));  // a second path to a file or folder read once
    return;
  }
  ++rep->documents;
  if (doc.read_error) {
    rep->diagnostics.push_back(std::move(*doc.read_error));
    ++rep->rejected;
    return;
  }
  for (Diagnostic& d : read.found.diagnostics) rep->diagnostics.push_back(std::move(d));
  if (!read.record) {
    ++rep->rejected;
    return;
  }
  bool canon = read.record->origin.format == Origin::Format::kDeadends;
  if (add(std::move(*read.record), rep)) {
    ++(canon ? rep->deadends : rep->native);
  } else {
    ++rep->rejected;
  }
}

void AddDocument(SourceDocument&& doc, const LoadOptions& options, LoadReport* rep,
                 const std::function<bool(Record, LoadReport*)>& add) {
  ReadDocument read = Read(doc, options);
  AddDocument(std::move(doc), std::move(read), rep, add);
}

// Documents are read into records on both cores, a batch at a time, and
// added in their order: the records, ids and diagnostics come out as from
// one pass. Reading JSON is most of a large knowledge base's first load
// (a million records: about 30 s on one core).
constexpr std::size_t kReadBatch = 4096;

void AddDocuments(std::vector<SourceDocument>* docs, const LoadOptions& options, LoadReport* rep,
                  const std::function<bool(Record, LoadReport*)>& add) {
  std::vector<ReadDocument> read(docs->size());
  auto read_range = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) read[i] = Read((*docs)[i], options);
  };
  if (docs->size() >= 64) {
    const std::size_t half = docs->size() / 2;
    auto other = std::async(std::launch::async, read_range, half, docs->size());
    read_range(0, half);
    other.get();
  } else {
    read_range(0, docs->size());
  }
  for (std::size_t i = 0; i < docs->size(); ++i) AddDocument(std::move((*docs)[i]), std::move(read[i]), rep, add);
  docs->clear();
}

// Strict mode: the first error refuses the knowledge base `name`.
Status RefuseOnErrors(const std::string& name, const LoadOptions& options, const LoadReport& rep) {
  if (!options.strict || rep.errors() == 0) return Status::Ok();
  const Diagnostic& first = *std::find_if(rep.diagnostics.begin(), rep.diagnostics.end(),
                                          [](const Diagnostic& d) { return d.severity == Severity::kError; });
  return Status::Corrupt(
      fmt::format("{}: refusing the knowledge base: {} error(s), the first: {}", name, rep.errors(), first.ToString()));
}

}  // namespace

Result<KnowledgeBase> KnowledgeBase::Load(const std::string& path, const LoadOptions& options,
                                          LoadReport* report) {
  LoadReport local;
  LoadReport* rep = report ? report : &local;
  KnowledgeBase kb;
  const auto add = [&kb](Record r, LoadReport* rp) { return kb.Add(std::move(r), rp); };
  std::vector<SourceDocument> batch;
  Status st = ForEachDocument(path, options, [&](SourceDocument&& doc) {
    batch.push_back(std::move(doc));
    if (batch.size() >= kReadBatch) AddDocuments(&batch, options, rep, add);
  });
  if (!st.ok()) return st;
  AddDocuments(&batch, options, rep, add);
  if (Status refused = RefuseOnErrors(path, options, *rep); !refused.ok()) return refused;
  return kb;
}

Result<KnowledgeBase> KnowledgeBase::FromDocuments(const std::string& name, std::vector<Document> documents,
                                                   const LoadOptions& options, LoadReport* report) {
  LoadReport local;
  LoadReport* rep = report ? report : &local;
  KnowledgeBase kb;
  const auto add = [&kb](Record r, LoadReport* rp) { return kb.Add(std::move(r), rp); };
  for (Document& d : documents) {
    SourceDocument doc;
    doc.origin.file = std::move(d.origin);
    doc.text = std::move(d.text);
    AddDocument(std::move(doc), options, rep, add);
  }
  if (Status refused = RefuseOnErrors(name, options, *rep); !refused.ok()) return refused;
  return kb;
}

Result<KnowledgeBase> KnowledgeBase::LoadCached(const std::string& path, const LoadOptions& options,
                                               const std::string& cache_dir, LoadReport* report) {
  std::optional<uint64_t> key;
  if (!cache_dir.empty()) {
    // Proving the snapshot fresh means listing every source file, which on
    // a tree of thousands of folders costs as much as reading the snapshot;
    // the two run side by side, and the snapshot read is kept only when its
    // key turns out to be the current one.
    auto listing = std::async(std::launch::async, [&] { return SnapshotKey(path, options); });
    std::optional<KnowledgeBase> early;
    LoadReport early_report;
    auto latest = LatestSnapshot(cache_dir, path);
    if (latest) early = LoadSnapshot(latest->first, latest->second, &early_report);
    key = listing.get();
    if (key && early && *key == latest->second) {
      if (report) *report = std::move(early_report);
      return std::move(*early);
    }
    early.reset();
    if (key) {
      if (auto kb = LoadSnapshot(SnapshotPath(cache_dir, path, *key), *key, report)) return std::move(*kb);
    }
  }
  LoadReport local;
  LoadReport* rep = report ? report : &local;
  auto kb = Load(path, options, rep);
  if (kb.ok() && key && SourceSettled(path)) SaveSnapshot(SnapshotPath(cache_dir, path, *key), *key, kb.value(), *rep);
  return kb;
}

std::string DefaultCacheDir(const std::string& kb_path) {
  std::error_code ec;
  fs::path base = fs::is_directory(kb_path, ec) ? fs::path(kb_path) : fs::path(kb_path).parent_path();
  if (base.empty()) base = ".";
  fs::path dir = base / ".kedb-cache";
  fs::create_directories(dir, ec);
  if (!ec && ::access(dir.c_str(), W_OK) == 0) return dir.string();
  return UserCacheDir();
}

std::string UserCacheDir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && *xdg) return (fs::path(xdg) / "kedb").string();
  if (home && *home) return (fs::path(home) / ".cache" / "kedb").string();
  return "";
}

std::string NoRecordsMessage(const std::string& path, const LoadReport& report) {
  if (report.documents > 0) {
    return fmt::format("{}: none of its {} document(s) could be loaded; `kedb lint --kb {}` says why", path,
                       report.documents, path);
  }
  return fmt::format("{}: holds no record (a knowledge base is a folder of *.json records, a .jsonl file or one "
                     "record file)", path);
}

KnowledgeBase KnowledgeBase::FromRecords(std::vector<Record> records, LoadReport* report) {
  LoadReport local;
  KnowledgeBase kb;
  kb.records_.reserve(records.size());
  kb.by_id_.reserve(records.size());
  for (auto& r : records) kb.Add(std::move(r), report ? report : &local);
  return kb;
}

bool KnowledgeBase::Add(Record record, LoadReport* report) {
  if (!key_) key_ = std::make_shared<KeyCache>();
  auto [it, inserted] = by_id_.try_emplace(record.id, records_.size());
  if (!inserted) {
    const Record& first = records_[it->second];
    std::string where = first.origin.file;
    report->diagnostics.push_back(DiagnosticAt(record.origin, {std::string("id")}, Severity::kError,
                                               "duplicate-id", record.id,
                                               fmt::format("id is already defined in {}", where)));
    return false;
  }
  records_.push_back(std::move(record));
  return true;
}

const Record* KnowledgeBase::Find(std::string_view id) const {
  auto i = IndexOf(id);
  return i ? &record(*i) : nullptr;
}

std::optional<std::size_t> KnowledgeBase::IndexOf(std::string_view id) const {
  if (overlay_) return overlay_->IndexOf(id);
  if (mapped_) return mapped_->Find(id);
  auto it = by_id_.find(std::string(id));
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

const Record& KnowledgeBase::record(std::size_t i) const {
  if (overlay_) return overlay_->Get(i);
  return mapped_ ? mapped_->Get(i) : records_[i];
}

void KnowledgeBase::ForEachRecord(const std::function<void(std::size_t, const Record&)>& visit) const {
  if (overlay_) return overlay_->ForEach(visit);
  for (std::size_t i = 0; i < size(); ++i) {
    if (!mapped_) {
      visit(i, records_[i]);
    } else if (const Record* kept = mapped_->IfDecoded(i)) {
      visit(i, *kept);
    } else {
      visit(i, mapped_->Decode(i));
    }
  }
}

std::size_t KnowledgeBase::size() const {
  if (overlay_) return overlay_->size();
  return mapped_ ? mapped_->size() : records_.size();
}

struct KnowledgeBase::KeyCache {
  std::once_flag once;
  uint64_t key = 0;
};

uint64_t KnowledgeBase::content_key() const {
  if (overlay_) return overlay_->content_key();
  if (mapped_) return mapped_->content_key();
  if (!key_) return RecordsContentKey(records_);  // a default-constructed, empty base
  std::call_once(key_->once, [&] { key_->key = RecordsContentKey(records_); });
  return key_->key;
}

std::string_view KnowledgeBase::pattern(std::size_t i) const {
  if (overlay_) return overlay_->Pattern(i);
  return mapped_ ? mapped_->Pattern(i) : std::string_view(records_[i].regex);
}

uint64_t KnowledgeBase::pattern_hash(std::size_t i) const {
  if (overlay_) return overlay_->PatternHashAt(i);
  return mapped_ ? mapped_->PatternHashAt(i) : PatternHash(records_[i].regex);
}

uint64_t KnowledgeBase::text_hash(std::size_t i) const {
  if (overlay_) return overlay_->TextHashAt(i);
  return mapped_ ? mapped_->TextHashAt(i) : records_[i].origin.text_hash;
}

uint64_t KnowledgeBase::PatternHash(std::string_view pattern) { return XXH3_64bits(pattern.data(), pattern.size()); }

KnowledgeBase KnowledgeBase::FromMapped(std::shared_ptr<const Mapped> mapped) {
  KnowledgeBase kb;
  kb.mapped_ = std::move(mapped);
  return kb;
}

Status WriteNativeTree(const KnowledgeBase& kb, const std::string& dir) {
  std::error_code ec;
  for (const Record& rec : kb.records()) {
    fs::path target = fs::path(dir) / RecordRelativePath(rec.id);
    fs::create_directories(target.parent_path(), ec);
    if (ec) return Status::IoError(fmt::format("{}: {}", target.parent_path().string(), ec.message()));
    fs::path tmp = target;
    tmp += ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      std::string text = FormatRecordFile(rec);
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      out.flush();
      if (!out) return Status::IoError(fmt::format("{}: write failed", tmp.string()));
    }
    fs::rename(tmp, target, ec);
    if (ec) return Status::IoError(fmt::format("{}: {}", target.string(), ec.message()));
  }
  return Status::Ok();
}

}  // namespace kedb
