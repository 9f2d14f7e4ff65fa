#include "kb/snapshot.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <ctime>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "kb/tree_walk.h"
#include "util/binary_io.h"

namespace kedb {
namespace fs = std::filesystem;
namespace {

// Bump whenever Record, Diagnostic or LoadReport (or how they are written
// here) change.
constexpr uint64_t kSnapshotFormat = 2;  // 2: sources, occurrences, verification_note
constexpr char kMagic[8] = {'K', 'E', 'D', 'B', 'S', 'N', 'P', '1'};

using util::BinaryReader;
using util::BinaryWriter;

// Size, modification time and inode of a file, hashed into `st` with its
// path.
void HashStat(const std::string& file, const struct stat& s, XXH3_state_t* st) {
  int64_t fields[] = {static_cast<int64_t>(s.st_size), static_cast<int64_t>(s.st_mtim.tv_sec),
                      static_cast<int64_t>(s.st_mtim.tv_nsec), static_cast<int64_t>(s.st_ino)};
  uint64_t len = file.size();
  XXH3_64bits_update(st, &len, sizeof len);
  XXH3_64bits_update(st, file.data(), file.size());
  XXH3_64bits_update(st, fields, sizeof fields);
}

// --- writing ---------------------------------------------------------------

void PutStrings(BinaryWriter* w, const std::vector<std::string>& v) {
  w->U64(v.size());
  for (const auto& s : v) w->Bytes(s);
}
void PutOptional(BinaryWriter* w, const std::optional<double>& v) {
  w->U64(v.has_value());
  w->F64(v.value_or(0));
}
void PutDate(BinaryWriter* w, const std::optional<Date>& d) {
  w->U64(d.has_value());
  w->U64(d ? static_cast<uint64_t>(d->year) * 10000 + static_cast<uint64_t>(d->month) * 100 + static_cast<uint64_t>(d->day) : 0);
}
void PutEdges(BinaryWriter* w, const std::vector<Edge>& edges) {
  w->U64(edges.size());
  for (const Edge& e : edges) {
    w->Bytes(e.error_id);
    w->U64(e.plain);
    PutOptional(w, e.probability);
    w->Bytes(e.condition);
    w->Bytes(e.distinction);
    w->Bytes(e.typical_delay);
  }
}

void PutOccurrences(BinaryWriter* w, const std::vector<Occurrence>& v) {
  w->U64(v.size());
  for (const auto& o : v) w->Bytes(o.text), w->Bytes(o.source), w->Bytes(o.belongs_to), w->Bytes(o.note);
}

void PutRecord(BinaryWriter* w, const Record& r) {
  for (const std::string* s : {&r.id, &r.signature, &r.signature_zh, &r.regex, &r.domain, &r.category,
                               &r.subcategory, &r.root_cause, &r.root_cause_type, &r.root_cause_zh,
                               &r.official_doc_url, &r.official_doc_section, &r.error_code, &r.verification_tier,
                               &r.verification_note, &r.locale, &r.attribution, &r.json, &r.origin.file}) {
    w->Bytes(*s);
  }
  w->U64(r.versions.size());
  for (const auto& v : r.versions) {
    for (const std::string* s : {&v.version, &v.introduced, &v.deprecated, &v.removed, &v.behavior_change, &v.status}) {
      w->Bytes(*s);
    }
  }
  w->U64(r.os_specific.size());
  for (const auto& [os, note] : r.os_specific) w->Bytes(os), w->Bytes(note);
  w->U64(r.dead_ends.size());
  for (const auto& d : r.dead_ends) {
    w->Bytes(d.action), w->Bytes(d.why_fails), w->F64(d.fail_rate), w->Bytes(d.condition);
    PutStrings(w, d.sources);
    w->Bytes(d.common_misconception), w->Bytes(d.tradeoff);
  }
  w->U64(r.workarounds.size());
  for (const auto& a : r.workarounds) {
    w->Bytes(a.action), w->F64(a.success_rate), w->Bytes(a.how), w->Bytes(a.condition);
    PutStrings(w, a.sources);
    w->Bytes(a.tradeoff);
  }
  PutStrings(w, r.workarounds_zh);
  PutEdges(w, r.transition_graph.leads_to);
  PutEdges(w, r.transition_graph.preceded_by);
  PutEdges(w, r.transition_graph.frequently_confused_with);
  PutOptional(w, r.confidence);
  PutOptional(w, r.fix_success_rate);
  w->U64(static_cast<uint64_t>(r.resolvable));
  PutDate(w, r.first_seen), PutDate(w, r.last_confirmed), PutDate(w, r.last_updated);
  w->U64(static_cast<uint64_t>(r.evidence_count));
  PutStrings(w, r.tags);
  PutStrings(w, r.aliases);
  PutStrings(w, r.sources);
  PutOccurrences(w, r.occurrences);
  PutOccurrences(w, r.counterexamples);
  w->U64(static_cast<uint64_t>(r.origin.format));
  w->U64(static_cast<uint64_t>(r.origin.offset));
  w->U64(static_cast<uint64_t>(r.origin.line));
}

// --- reading ---------------------------------------------------------------

// Reads fields in the order PutRecord wrote them; `ok` turns false (and
// stays false) at the first short read or out-of-range value.
class RecordReader {
 public:
  explicit RecordReader(BinaryReader* r) : r_(r) {}
  bool ok() const { return ok_; }

  void Str(std::string* s) { ok_ = ok_ && r_->String(s); }
  uint64_t Count() {
    uint64_t n = 0;
    ok_ = ok_ && r_->U64(&n) && n < (1u << 24);
    return ok_ ? n : 0;
  }
  uint64_t Int() {
    uint64_t n = 0;
    ok_ = ok_ && r_->U64(&n);
    return n;
  }
  double F64() {
    double d = 0;
    ok_ = ok_ && r_->F64(&d);
    return d;
  }
  void Strings(std::vector<std::string>* v) {
    v->resize(Count());
    for (auto& s : *v) Str(&s);
  }
  std::optional<double> Optional() {
    bool has = Int() != 0;
    double d = F64();
    return has ? std::optional<double>(d) : std::nullopt;
  }
  std::optional<Date> DateField() {
    bool has = Int() != 0;
    uint64_t v = Int();
    if (!has) return std::nullopt;
    return Date{static_cast<int>(v / 10000), static_cast<int>(v / 100 % 100), static_cast<int>(v % 100)};
  }
  void Edges(std::vector<Edge>* edges) {
    edges->resize(Count());
    for (Edge& e : *edges) {
      Str(&e.error_id);
      e.plain = Int() != 0;
      e.probability = Optional();
      Str(&e.condition), Str(&e.distinction), Str(&e.typical_delay);
    }
  }
  void Occurrences(std::vector<Occurrence>* v) {
    v->resize(Count());
    for (Occurrence& o : *v) Str(&o.text), Str(&o.source), Str(&o.belongs_to), Str(&o.note);
  }
  void Record(kedb::Record* r) {
    for (std::string* s : {&r->id, &r->signature, &r->signature_zh, &r->regex, &r->domain, &r->category,
                           &r->subcategory, &r->root_cause, &r->root_cause_type, &r->root_cause_zh,
                           &r->official_doc_url, &r->official_doc_section, &r->error_code, &r->verification_tier,
                           &r->verification_note, &r->locale, &r->attribution, &r->json, &r->origin.file}) {
      Str(s);
    }
    r->versions.resize(Count());
    for (auto& v : r->versions) {
      for (std::string* s : {&v.version, &v.introduced, &v.deprecated, &v.removed, &v.behavior_change, &v.status}) {
        Str(s);
      }
    }
    r->os_specific.resize(Count());
    for (auto& [os, note] : r->os_specific) Str(&os), Str(&note);
    r->dead_ends.resize(Count());
    for (auto& d : r->dead_ends) {
      Str(&d.action), Str(&d.why_fails);
      d.fail_rate = F64();
      Str(&d.condition);
      Strings(&d.sources);
      Str(&d.common_misconception), Str(&d.tradeoff);
    }
    r->workarounds.resize(Count());
    for (auto& a : r->workarounds) {
      Str(&a.action);
      a.success_rate = F64();
      Str(&a.how), Str(&a.condition);
      Strings(&a.sources);
      Str(&a.tradeoff);
    }
    Strings(&r->workarounds_zh);
    Edges(&r->transition_graph.leads_to);
    Edges(&r->transition_graph.preceded_by);
    Edges(&r->transition_graph.frequently_confused_with);
    r->confidence = Optional();
    r->fix_success_rate = Optional();
    uint64_t resolvable = Int();
    ok_ = ok_ && resolvable <= static_cast<uint64_t>(Resolvable::kFalse);
    r->resolvable = static_cast<Resolvable>(resolvable);
    r->first_seen = DateField(), r->last_confirmed = DateField(), r->last_updated = DateField();
    r->evidence_count = static_cast<int64_t>(Int());
    Strings(&r->tags);
    Strings(&r->aliases);
    Strings(&r->sources);
    Occurrences(&r->occurrences);
    Occurrences(&r->counterexamples);
    uint64_t format = Int();
    ok_ = ok_ && format <= static_cast<uint64_t>(Origin::Format::kDeadends);
    r->origin.format = static_cast<Origin::Format>(format);
    r->origin.offset = static_cast<int64_t>(Int());
    r->origin.line = static_cast<int>(Int());
  }

 private:
  BinaryReader* r_;
  bool ok_ = true;
};

}  // namespace

std::optional<uint64_t> SnapshotKey(const std::string& path, const LoadOptions& options) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  std::string header = fmt::format("{}|{}|{}|{}|{}|{}|{}|", kSnapshotFormat, path, options.strict,
                                   options.max_file_bytes, options.max_line_bytes, options.max_string_bytes,
                                   options.max_depth);
  XXH3_64bits_update(st, header.data(), header.size());
  bool ok = true;
  struct stat top {};
  if (::stat(path.c_str(), &top) != 0) {
    ok = false;
  } else if (S_ISDIR(top.st_mode)) {
    std::vector<TreeEntry> entries;
    ok = ListRecordFiles(path, &entries);
    for (const TreeEntry& e : entries) {
      if (e.problem) {
        const std::string seen = e.path + "|" + e.problem->message;
        XXH3_64bits_update(st, seen.data(), seen.size());
      } else {
        HashStat(e.path, e.st, st);
      }
    }
  } else {
    HashStat(path, top, st);
  }
  uint64_t key = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  if (!ok) return std::nullopt;
  return key;
}

bool SourceSettled(const std::string& path) {
  constexpr int64_t kSettleSeconds = 3;
  struct stat top {};
  if (::stat(path.c_str(), &top) != 0) return false;
  std::vector<TreeEntry> files;
  if (S_ISDIR(top.st_mode)) {
    if (!ListRecordFiles(path, &files)) return false;
  } else {
    files.push_back(TreeEntry{path, top, std::nullopt});
  }
  const int64_t now = static_cast<int64_t>(::time(nullptr));
  return std::all_of(files.begin(), files.end(), [&](const TreeEntry& f) {
    return f.problem || static_cast<int64_t>(f.st.st_mtim.tv_sec) + kSettleSeconds < now;
  });
}

namespace {
std::string SnapshotPrefix(const std::string& path) {
  return fmt::format("kb-{:08x}-", static_cast<uint32_t>(XXH3_64bits(path.data(), path.size())));
}
}  // namespace

std::string SnapshotPath(const std::string& cache_dir, const std::string& path, uint64_t key) {
  return (fs::path(cache_dir) / fmt::format("{}{:016x}.bin", SnapshotPrefix(path), key)).string();
}

std::optional<std::pair<std::string, uint64_t>> LatestSnapshot(const std::string& cache_dir, const std::string& path) {
  const std::string prefix = SnapshotPrefix(path);
  DIR* d = ::opendir(cache_dir.c_str());
  if (!d) return std::nullopt;
  std::optional<std::pair<std::string, uint64_t>> found;
  while (struct dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    // "kb-<path hash>-<16 hex digits>.bin"
    if (name.size() != prefix.size() + 20 || name.substr(0, prefix.size()) != prefix || !name.ends_with(".bin")) continue;
    uint64_t key = 0;
    auto hex = name.substr(prefix.size(), 16);
    auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), key, 16);
    if (ec != std::errc() || end != hex.data() + hex.size()) continue;
    found.emplace((fs::path(cache_dir) / std::string(name)).string(), key);
    break;
  }
  ::closedir(d);
  return found;
}

bool SaveSnapshot(const std::string& file, uint64_t key, const KnowledgeBase& kb, const LoadReport& report) {
  BinaryWriter w;
  w.Raw(std::string_view(kMagic, sizeof kMagic));
  w.U64(key);
  w.U64(report.documents), w.U64(report.rejected), w.U64(report.native), w.U64(report.deadends);
  w.U64(report.diagnostics.size());
  for (const Diagnostic& d : report.diagnostics) {
    w.U64(static_cast<uint64_t>(d.severity));
    w.Bytes(d.rule), w.Bytes(d.file);
    w.U64(static_cast<uint64_t>(d.line)), w.U64(static_cast<uint64_t>(d.column));
    w.Bytes(d.record_id), w.Bytes(d.field), w.Bytes(d.message);
  }
  w.U64(kb.size());
  for (const Record& r : kb.records()) PutRecord(&w, r);
  w.Seal();
  if (!util::WriteFileAtomically(file, w.str())) return false;
  // Only the newest snapshot of a knowledge base is ever read again.
  const std::string name = fs::path(file).filename().string();
  util::PruneCacheFiles(fs::path(file).parent_path().string(), name.substr(0, name.rfind('-') + 1), 1);
  return true;
}

std::optional<KnowledgeBase> LoadSnapshot(const std::string& file, uint64_t key, LoadReport* report) {
  util::MappedFile mapped(file);
  std::string_view bytes = mapped.bytes();
  if (bytes.size() < sizeof kMagic + 16 || bytes.compare(0, sizeof kMagic, std::string_view(kMagic, sizeof kMagic)) != 0) {
    return std::nullopt;
  }
  if (!util::Unseal(&bytes)) return std::nullopt;
  BinaryReader in(bytes.substr(sizeof kMagic));
  RecordReader r(&in);
  if (r.Int() != key) return std::nullopt;
  LoadReport rep;
  rep.documents = r.Int(), rep.rejected = r.Int(), rep.native = r.Int(), rep.deadends = r.Int();
  rep.diagnostics.resize(r.Count());
  for (Diagnostic& d : rep.diagnostics) {
    uint64_t severity = r.Int();
    d.severity = severity == 0 ? Severity::kError : Severity::kWarning;
    r.Str(&d.rule), r.Str(&d.file);
    d.line = static_cast<int>(r.Int()), d.column = static_cast<int>(r.Int());
    r.Str(&d.record_id), r.Str(&d.field), r.Str(&d.message);
  }
  std::vector<Record> records(r.Count());
  for (Record& rec : records) r.Record(&rec);
  if (!r.ok() || !in.done()) return std::nullopt;
  LoadReport duplicates;  // a snapshot was written from unique ids
  KnowledgeBase kb = KnowledgeBase::FromRecords(std::move(records), &duplicates);
  if (!duplicates.diagnostics.empty()) return std::nullopt;
  if (report) *report = std::move(rep);
  return kb;
}

}  // namespace kedb
